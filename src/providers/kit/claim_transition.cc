#include "providers/kit/claim_transition.h"

#include <string>

namespace docket::kit {
namespace {

void end_claim(ClaimEntry& entry, ClaimStatus status, Timestamp now) {
  entry.status = status;
  entry.owner.reset();
  entry.lease_until.reset();
  entry.updated_at = now;
}

}  // namespace

ClaimEntry new_claim_entry(const ClaimKey& key, Timestamp now) {
  ClaimEntry entry(key);
  entry.received_at = now;
  entry.updated_at = now;
  return entry;
}

bool claimable(const ClaimEntry& entry, Timestamp now) {
  switch (entry.status) {
    case ClaimStatus::kReceived:
    case ClaimStatus::kFailed:
      return true;
    case ClaimStatus::kProcessing:
      return entry.lease_until.has_value() && *entry.lease_until <= now;
    case ClaimStatus::kProcessed:
      return false;
  }
  return false;
}

bool held_by(const ClaimEntry& entry, std::string_view owner) {
  return entry.status == ClaimStatus::kProcessing && entry.owner == owner;
}

ClaimResult claim(ClaimEntry& entry, std::string_view owner, Timestamp now,
                  std::chrono::microseconds lease) {
  if (!claimable(entry, now)) {
    const bool processed = entry.status == ClaimStatus::kProcessed;
    return {.outcome = processed ? ClaimOutcome::kAlreadyProcessed : ClaimOutcome::kHeldByAnother,
            .retry_count = entry.retry_count,
            .lease_until = entry.lease_until};
  }
  entry.status = ClaimStatus::kProcessing;
  entry.owner = std::string(owner);
  entry.lease_until = now + lease;
  entry.updated_at = now;
  return {.outcome = ClaimOutcome::kClaimed,
          .retry_count = entry.retry_count,
          .lease_until = entry.lease_until};
}

void mark_processed(ClaimEntry& entry, Timestamp now) {
  end_claim(entry, ClaimStatus::kProcessed, now);
  entry.processed_at = now;
  entry.next_attempt_at.reset();
}

void release(ClaimEntry& entry, Timestamp now) {
  end_claim(entry, ClaimStatus::kReceived, now);
}

void mark_failed(ClaimEntry& entry, const ClaimFailure& failure, Timestamp now) {
  end_claim(entry, ClaimStatus::kFailed, now);
  ++entry.retry_count;
  entry.last_error = failure.error;
  entry.next_attempt_at = failure.next_attempt_at;
}

bool cleanable(const ClaimEntry& entry, const TenantId* tenant, Timestamp cutoff) {
  return entry.status == ClaimStatus::kProcessed && entry.processed_at.has_value() &&
         *entry.processed_at < cutoff && (tenant == nullptr || entry.key.tenant() == *tenant);
}

}  // namespace docket::kit
