#include "providers/postgres/postgres_claim_rows.h"

#include <cstdint>
#include <string>

#include "providers/kit/claim_row.h"
#include "providers/kit/time_codec.h"

namespace docket::postgres::detail {
namespace {

// The store's name in the kit's errors.
constexpr std::string_view kClaimInboxStore = "PostgreSQL claim inbox";

std::optional<Timestamp> optional_time_at(const Result& result, int row, int column) {
  const std::optional<std::int64_t> micros = result.optional_int64(row, column);
  return micros ? std::optional(kit::from_micros(*micros)) : std::nullopt;
}

}  // namespace

std::vector<ClaimEntry> claim_entries(const Result& result) {
  std::vector<ClaimEntry> entries;
  entries.reserve(static_cast<std::size_t>(result.rows()));
  for (int row = 0; row < result.rows(); ++row) {
    entries.push_back(
        kit::claim_entry({.tenant = result.text(row, kit::kClaimTenant),
                          .message_id = result.text(row, kit::kClaimMessageId),
                          .handler_type = result.text(row, kit::kClaimHandlerType),
                          .status = result.text(row, kit::kClaimStatus),
                          .retry_count = result.int64(row, kit::kClaimRetryCount),
                          .received_at = result.int64(row, kit::kClaimReceivedAt),
                          .updated_at = result.int64(row, kit::kClaimUpdatedAt),
                          .owner = result.optional_text(row, kit::kClaimOwner),
                          .claim_id = result.optional_text(row, kit::kClaimClaimId),
                          .lease_until = result.optional_int64(row, kit::kClaimLeaseUntil),
                          .processed_at = result.optional_int64(row, kit::kClaimProcessedAt),
                          .last_error = result.optional_text(row, kit::kClaimLastError),
                          .next_attempt_at = result.optional_int64(row, kit::kClaimNextAttemptAt)},
                         kClaimInboxStore));
  }
  return entries;
}

std::optional<ClaimResult> claim_result(const Result& result) {
  if (result.rows() == 0) {
    return std::nullopt;
  }
  return claim_result_at(result, 0, 0);
}

std::optional<ClaimResult> claim_result_at(const Result& result, int row, int first) {
  // Columns from `first`: claimed, status, retry_count, lease_until.
  const std::uint32_t retry_count =
      kit::claim_retry_count(result.int64(row, first + 2), kClaimInboxStore);
  const std::optional<Timestamp> lease_until = optional_time_at(result, row, first + 3);
  if (result.boolean(row, first)) {
    return ClaimResult{
        .outcome = ClaimOutcome::kClaimed, .retry_count = retry_count, .lease_until = lease_until};
  }
  switch (kit::claim_status(result.text(row, first + 1), kClaimInboxStore)) {
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

}  // namespace docket::postgres::detail
