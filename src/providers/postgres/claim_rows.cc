#include "providers/postgres/claim_rows.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "docket/error.h"
#include "providers/kit/time_codec.h"

namespace docket::postgres {
namespace {

// Column indexes of claim_sql::kClaimColumns.
enum Column : int {
  kTenant,
  kMessageId,
  kHandlerType,
  kStatus,
  kRetryCount,
  kReceivedAt,
  kUpdatedAt,
  kOwner,
  kLeaseUntil,
  kProcessedAt,
  kLastError,
  kNextAttemptAt,
};

[[noreturn]] void throw_stored(std::string_view what, std::string_view detail) {
  throw InfrastructureError("PostgreSQL claim inbox: docket_claim_inbox holds " +
                            std::string(what) + " (" + std::string(detail) +
                            "); the row was not written by docket: fix or delete it");
}

ClaimStatus status_at(const Result& result, int row, int column) {
  const std::string_view text = result.text(row, column);
  const std::optional<ClaimStatus> status = parse_claim_status(text);
  if (!status) {
    throw_stored("an unknown status", "\"" + std::string(text) + "\"");
  }
  return *status;
}

std::uint32_t count_at(const Result& result, int row, int column) {
  const std::int64_t count = result.int64(row, column);
  if (count < 0 || count > std::numeric_limits<std::uint32_t>::max()) {
    throw_stored("a retry count out of range", std::to_string(count));
  }
  return static_cast<std::uint32_t>(count);
}

std::optional<Timestamp> optional_time_at(const Result& result, int row, int column) {
  const std::optional<std::int64_t> micros = result.optional_int64(row, column);
  return micros ? std::optional(kit::from_micros(*micros)) : std::nullopt;
}

std::optional<std::string> optional_string_at(const Result& result, int row, int column) {
  const std::optional<std::string_view> text = result.optional_text(row, column);
  return text ? std::optional<std::string>(*text) : std::nullopt;
}

ClaimKey key_at(const Result& result, int row) {
  const std::string_view tenant = result.text(row, kTenant);
  const std::string_view message_id = result.text(row, kMessageId);
  const std::string_view handler_type = result.text(row, kHandlerType);
  try {
    return ClaimKey(TenantId::from_stored(tenant), message_id, handler_type);
  } catch (const InvalidInputError& e) {
    throw_stored("a key docket does not accept",
                 "tenant \"" + std::string(tenant) + "\", message id \"" + std::string(message_id) +
                     "\", handler type \"" + std::string(handler_type) + "\": " + e.what());
  }
}

}  // namespace

std::vector<ClaimEntry> claim_entries(const Result& result) {
  std::vector<ClaimEntry> entries;
  entries.reserve(static_cast<std::size_t>(result.rows()));
  for (int row = 0; row < result.rows(); ++row) {
    ClaimEntry& entry = entries.emplace_back(key_at(result, row));
    entry.status = status_at(result, row, kStatus);
    entry.retry_count = count_at(result, row, kRetryCount);
    entry.received_at = kit::from_micros(result.int64(row, kReceivedAt));
    entry.updated_at = kit::from_micros(result.int64(row, kUpdatedAt));
    entry.owner = optional_string_at(result, row, kOwner);
    entry.lease_until = optional_time_at(result, row, kLeaseUntil);
    entry.processed_at = optional_time_at(result, row, kProcessedAt);
    entry.last_error = optional_string_at(result, row, kLastError);
    entry.next_attempt_at = optional_time_at(result, row, kNextAttemptAt);
  }
  return entries;
}

std::optional<ClaimResult> claim_result(const Result& result) {
  if (result.rows() == 0) {
    return std::nullopt;
  }
  // Columns: claimed, status, retry_count, lease_until.
  const std::uint32_t retry_count = count_at(result, 0, 2);
  const std::optional<Timestamp> lease_until = optional_time_at(result, 0, 3);
  if (result.boolean(0, 0)) {
    return ClaimResult{
        .outcome = ClaimOutcome::kClaimed, .retry_count = retry_count, .lease_until = lease_until};
  }
  switch (status_at(result, 0, 1)) {
    case ClaimStatus::kProcessed:
      return ClaimResult{.outcome = ClaimOutcome::kAlreadyProcessed,
                         .retry_count = retry_count,
                         .lease_until = std::nullopt};
    case ClaimStatus::kProcessing:
      return ClaimResult{.outcome = ClaimOutcome::kHeldByAnother,
                         .retry_count = retry_count,
                         .lease_until = lease_until};
    case ClaimStatus::kReceived:
    case ClaimStatus::kFailed:
      break;
  }
  // Claimable, yet not claimed: the statement read the row as the WHERE that refused it
  // did not see it (claim_sql.h says why that cannot happen); asking again is safe.
  return std::nullopt;
}

ClaimCounts claim_counts(const Result& result) {
  // Columns: received, processing, processed, failed, oldest pending, failed due.
  const auto count = [&](int column) {
    const std::int64_t n = result.int64(0, column);
    return static_cast<std::uint64_t>(n);  // count(*) is never negative
  };
  return ClaimCounts{.received = count(0),
                     .processing = count(1),
                     .processed = count(2),
                     .failed = count(3),
                     .oldest_pending = optional_time_at(result, 0, 4),
                     .failed_due = count(5)};
}

}  // namespace docket::postgres
