#include "providers/sqlite/sqlite_claim_inbox_rows.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "docket/error.h"
#include "providers/kit/time_codec.h"

namespace docket::sqlite::detail {
namespace {

// The columns of DOCKET_CLAIM_COLUMNS.
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

// Entries a read makes room for before its first row: a page may be asked for with a
// large limit and still hold a few entries.
constexpr std::size_t kFirstEntries = 32;

[[noreturn]] void throw_foreign_row(std::string_view what) {
  throw InfrastructureError("SQLite claim inbox: a docket_claim_inbox row has " +
                            std::string(what) +
                            ", which docket never writes; the row was changed outside docket");
}

Timestamp time_at(const RowView& row, int column) {
  return kit::from_micros(row.int64(column));
}

std::optional<Timestamp> optional_time(const RowView& row, int column) {
  if (row.is_null(column)) {
    return std::nullopt;
  }
  return time_at(row, column);
}

std::optional<std::string> optional_text(const RowView& row, int column) {
  if (row.is_null(column)) {
    return std::nullopt;
  }
  return std::string(row.bytes(column));
}

}  // namespace

ClaimStatus claim_status(const RowView& row, int column) {
  const std::string_view text = row.bytes(column);
  const std::optional<ClaimStatus> status = parse_claim_status(text);
  if (!status) {
    throw_foreign_row("status '" + std::string(text) + "'");
  }
  return *status;
}

std::uint32_t claim_retry_count(const RowView& row, int column) {
  const std::int64_t count = row.int64(column);
  if (count < 0 || count > std::numeric_limits<std::uint32_t>::max()) {
    throw_foreign_row("retry_count " + std::to_string(count));
  }
  return static_cast<std::uint32_t>(count);
}

ClaimEntry claim_entry(const RowView& row) {
  ClaimEntry entry(ClaimKey(TenantId::from_stored(row.bytes(kTenant)), row.bytes(kMessageId),
                            row.bytes(kHandlerType)));
  entry.status = claim_status(row, kStatus);
  entry.retry_count = claim_retry_count(row, kRetryCount);
  entry.received_at = time_at(row, kReceivedAt);
  entry.updated_at = time_at(row, kUpdatedAt);
  entry.owner = optional_text(row, kOwner);
  entry.lease_until = optional_time(row, kLeaseUntil);
  entry.processed_at = optional_time(row, kProcessedAt);
  entry.last_error = optional_text(row, kLastError);
  entry.next_attempt_at = optional_time(row, kNextAttemptAt);
  return entry;
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
