#include "sqlite_raw_outbox.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "outbox_workload.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// The busy timeout docket's SQLite store uses by default (docket::sqlite::StoreOptions).
// The relay's default lease (RelaySettings::lease).
constexpr std::int64_t kOutboxLeaseMicros = 30'000'000;

// Verbatim the statements of src/providers/sqlite/sqlite_outbox_store.cc.
constexpr const char* kOutboxInsertSql =
    "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, "
    "message_source, causation_id, correlation_id, traceparent, tracestate, created_at, "
    "attempts, next_attempt_at, status) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 0)";
constexpr const char* kClaimSql =
    "UPDATE docket_outbox SET lease_token = ?1, lease_until = ?2 WHERE sequence IN "
    "(SELECT sequence FROM docket_outbox WHERE status = 0 AND next_attempt_at <= ?3 AND "
    "(lease_until IS NULL OR lease_until <= ?3) ORDER BY sequence LIMIT ?4) RETURNING "
    "sequence, id, tenant, event_type, payload, occurred_at, message_source, causation_id, "
    "correlation_id, traceparent, tracestate, created_at, status, attempts, next_attempt_at, "
    "last_error, done_at";
constexpr const char* kCompleteSql =
    "UPDATE docket_outbox SET status = 1, done_at = ?3, lease_token = NULL, "
    "lease_until = NULL WHERE id = ?1 AND lease_token = ?2 AND status = 0";

}  // namespace

RawOutboxSqlite::RawOutboxSqlite(const std::string& path, const std::string& source,
                                 const MessageIds& ids, PublishLog& log, std::size_t batch)
    : source_(source),
      ids_(ids),
      log_(log),
      batch_(batch),
      db_(path, kRawBusyTimeout),
      begin_(db_, "BEGIN IMMEDIATE"),
      commit_(db_, "COMMIT"),
      insert_(db_, kOutboxInsertSql),
      claim_(db_, kClaimSql),
      complete_(db_, kCompleteSql) {}

void RawOutboxSqlite::insert(std::size_t message) {
  const std::int64_t now = now_micros();
  insert_.bind_text(1, ids_.id(message));
  insert_.bind_text(2, kOutboxTenant);
  insert_.bind_text(3, kOutboxEventType);
  insert_.bind_text(4, kOutboxPayload);
  insert_.bind_int64(5, now);
  insert_.bind_text(6, source_);
  insert_.bind_null(7);
  insert_.bind_null(8);
  insert_.bind_text(9, "");
  insert_.bind_text(10, "");
  insert_.bind_int64(11, now);
  insert_.bind_int64(12, 0);
  insert_.bind_int64(13, now);
  insert_.run();
}

void RawOutboxSqlite::stage(std::size_t message) {
  fill(message, 1);
}

void RawOutboxSqlite::fill(std::size_t first, std::size_t count) {
  begin_.run();
  try {
    for (std::size_t m = first; m < first + count; ++m) {
      insert(m);
    }
    commit_.run();
  } catch (...) {
    db_.rollback_and_rethrow();
  }
}

RelayTally RawOutboxSqlite::relay_pass() {
  char token[40];
  std::snprintf(token, sizeof token, "raw-%032llu", static_cast<unsigned long long>(++passes_));
  const std::int64_t now = now_micros();
  claim_.bind_text(1, token);
  claim_.bind_int64(2, now + kOutboxLeaseMicros);
  claim_.bind_int64(3, now);
  claim_.bind_int64(4, static_cast<std::int64_t>(batch_));
  std::size_t rows = 0;
  try {
    for (; claim_.step(); ++rows) {
      if (claimed_.size() <= rows) {
        claimed_.emplace_back();
      }
      claimed_[rows].first = claim_.column_int64(0);
      claimed_[rows].second.assign(claim_.column_bytes(1));
      for (int c = 2; c < claim_.column_count(); ++c) {
        sink_ += claim_.column_type(c) == SQLITE_INTEGER
                     ? static_cast<std::uint64_t>(claim_.column_int64(c))
                     : claim_.column_bytes(c).size();
      }
    }
  } catch (...) {
    claim_.reset();
    throw;
  }
  claim_.reset();
  // RETURNING gives no order; the relay publishes a batch in sequence order.
  std::sort(claimed_.begin(), claimed_.begin() + static_cast<std::ptrdiff_t>(rows));
  RelayTally tally{.passes = 1, .claimed = rows, .published = 0, .not_done = 0};
  for (std::size_t r = 0; r < rows; ++r) {
    log_.record(claimed_[r].second);
    complete_.bind_text(1, claimed_[r].second);
    complete_.bind_text(2, token);
    complete_.bind_int64(3, now_micros());
    ++(complete_.run() == 1 ? tally.published : tally.not_done);
  }
  return tally;
}

}  // namespace docket::bench
