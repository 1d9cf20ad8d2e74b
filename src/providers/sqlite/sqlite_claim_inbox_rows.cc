#include "providers/sqlite/sqlite_claim_inbox_rows.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "providers/kit/claim_row.h"

namespace docket::sqlite::detail {
namespace {

// Entries a read makes room for before its first row: a page may be asked for with a
// large limit and still hold a few entries.
constexpr std::size_t kFirstEntries = 32;

std::optional<std::int64_t> optional_int64(const RowView& row, int column) {
  return row.is_null(column) ? std::nullopt : std::optional(row.int64(column));
}

std::optional<std::string_view> optional_bytes(const RowView& row, int column) {
  return row.is_null(column) ? std::nullopt : std::optional(row.bytes(column));
}

}  // namespace

ClaimEntry claim_entry(const RowView& row) {
  return kit::claim_entry({.tenant = row.bytes(kit::kClaimTenant),
                           .message_id = row.bytes(kit::kClaimMessageId),
                           .handler_type = row.bytes(kit::kClaimHandlerType),
                           .status = row.bytes(kit::kClaimStatus),
                           .retry_count = row.int64(kit::kClaimRetryCount),
                           .received_at = row.int64(kit::kClaimReceivedAt),
                           .updated_at = row.int64(kit::kClaimUpdatedAt),
                           .owner = optional_bytes(row, kit::kClaimOwner),
                           .claim_id = optional_bytes(row, kit::kClaimClaimId),
                           .lease_until = optional_int64(row, kit::kClaimLeaseUntil),
                           .processed_at = optional_int64(row, kit::kClaimProcessedAt),
                           .last_error = optional_bytes(row, kit::kClaimLastError),
                           .next_attempt_at = optional_int64(row, kit::kClaimNextAttemptAt)},
                          kClaimInboxStore);
}

std::vector<ClaimEntry> claim_entries(Connection& connection, std::string_view sql,
                                      std::span<const ParamView> params, std::size_t expected) {
  std::vector<ClaimEntry> entries;
  entries.reserve(std::min(expected, kFirstEntries));
  connection.for_each_row(sql, params,
                          [&](const RowView& row) { entries.push_back(claim_entry(row)); });
  return entries;
}

}  // namespace docket::sqlite::detail
