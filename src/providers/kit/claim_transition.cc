#include "providers/kit/claim_transition.h"

#include <string>

namespace docket::kit {
namespace {

void end_claim(ClaimEntry& entry, ClaimStatus status, Timestamp now) {
  entry.status = status;
  entry.owner.reset();
  entry.claim_id.reset();
  entry.lease_until.reset();
  entry.updated_at = now;
}

}  // namespace

Timestamp machine_now(const Clock& clock) {
  return clock.simulated() ? clock.now() : SystemClock::instance().now();
}

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

bool held_by(const ClaimEntry& entry, const ClaimToken& token) {
  return entry.status == ClaimStatus::kProcessing && entry.owner == token.owner &&
         entry.claim_id == token.claim_id;
}

ClaimResult claim(ClaimEntry& entry, const ClaimToken& token, Timestamp now,
                  std::chrono::microseconds lease) {
  if (!claimable(entry, now)) {
    const bool processed = entry.status == ClaimStatus::kProcessed;
    return {.outcome = processed ? ClaimOutcome::kAlreadyProcessed : ClaimOutcome::kHeldByAnother,
            .retry_count = entry.retry_count,
            .lease_until = entry.lease_until};
  }
  entry.status = ClaimStatus::kProcessing;
  entry.owner = token.owner;
  entry.claim_id = token.claim_id;
  entry.lease_until = now + lease;
  entry.updated_at = now;
  return {.outcome = ClaimOutcome::kClaimed,
          .retry_count = entry.retry_count,
          .lease_until = entry.lease_until};
}

Timestamp renew(ClaimEntry& entry, Timestamp now, std::chrono::microseconds lease) {
  entry.lease_until = now + lease;
  entry.updated_at = now;
  return *entry.lease_until;
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

bool retry_now(ClaimEntry& entry, Timestamp now) {
  if (entry.status != ClaimStatus::kFailed) {
    return false;
  }
  entry.next_attempt_at = now;
  entry.updated_at = now;
  return true;
}

bool cleanable(const ClaimEntry& entry, const TenantId* tenant, Timestamp cutoff) {
  return entry.status == ClaimStatus::kProcessed && entry.processed_at.has_value() &&
         *entry.processed_at < cutoff && (tenant == nullptr || entry.key.tenant() == *tenant);
}

}  // namespace docket::kit
