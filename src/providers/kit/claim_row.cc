#include "providers/kit/claim_row.h"

#include <algorithm>
#include <limits>
#include <string>

#include "docket/core/error.h"
#include "providers/kit/time_codec.h"

namespace docket::kit {
namespace {

[[noreturn]] void throw_stored(std::string_view store, std::string_view what,
                               std::string_view detail) {
  throw InfrastructureError(std::string(store) + ": docket_claim_inbox holds " + std::string(what) +
                            " (" + std::string(detail) +
                            "); the row was not written by docket: fix or delete it");
}

std::optional<Timestamp> optional_time(std::optional<std::int64_t> micros) {
  return micros ? std::optional(from_micros(*micros)) : std::nullopt;
}

std::optional<std::string> optional_string(std::optional<std::string_view> text) {
  return text ? std::optional<std::string>(*text) : std::nullopt;
}

ClaimKey claim_key(const StoredClaimEntry& stored, std::string_view store) {
  try {
    return ClaimKey(TenantId::from_stored(stored.tenant), stored.message_id, stored.handler_type);
  } catch (const InvalidInputError& e) {
    throw_stored(store, "a key docket does not accept",
                 "tenant \"" + std::string(stored.tenant) + "\", message id \"" +
                     std::string(stored.message_id) + "\", handler type \"" +
                     std::string(stored.handler_type) + "\": " + e.what());
  }
}

}  // namespace

ClaimStatus claim_status(std::string_view stored, std::string_view store) {
  const std::optional<ClaimStatus> status = parse_claim_status(stored);
  if (!status) {
    throw_stored(store, "an unknown status", "\"" + std::string(stored) + "\"");
  }
  return *status;
}

std::uint32_t claim_retry_count(std::int64_t stored, std::string_view store) {
  if (stored < 0 || stored > std::numeric_limits<std::uint32_t>::max()) {
    throw_stored(store, "a retry count out of range", std::to_string(stored));
  }
  return static_cast<std::uint32_t>(stored);
}

ClaimEntry claim_entry(const StoredClaimEntry& stored, std::string_view store) {
  ClaimEntry entry(claim_key(stored, store));
  entry.status = claim_status(stored.status, store);
  entry.retry_count = claim_retry_count(stored.retry_count, store);
  entry.received_at = from_micros(stored.received_at);
  entry.updated_at = from_micros(stored.updated_at);
  entry.owner = optional_string(stored.owner);
  entry.claim_id = optional_string(stored.claim_id);
  entry.lease_until = optional_time(stored.lease_until);
  entry.processed_at = optional_time(stored.processed_at);
  entry.last_error = optional_string(stored.last_error);
  entry.next_attempt_at = optional_time(stored.next_attempt_at);
  return entry;
}

void count_claim_entry(ClaimCounts& counts, ClaimStatus status, Timestamp received_at,
                       bool failed_due) {
  switch (status) {
    case ClaimStatus::kReceived:
      ++counts.received;
      break;
    case ClaimStatus::kProcessing:
      ++counts.processing;
      break;
    case ClaimStatus::kProcessed:
      ++counts.processed;
      return;  // not pending
    case ClaimStatus::kFailed:
      ++counts.failed;
      counts.failed_due += failed_due ? 1 : 0;
      break;
  }
  counts.oldest_pending = std::min(counts.oldest_pending.value_or(received_at), received_at);
}

}  // namespace docket::kit
