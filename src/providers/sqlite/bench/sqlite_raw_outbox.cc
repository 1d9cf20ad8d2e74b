#include "sqlite_raw_outbox.h"

#include <sqlite3.h>

#include <chrono>
#include <cstdio>

#include "outbox_workload.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// The busy timeout docket's SQLite store uses by default (docket::sqlite::StoreOptions).
// The relay's default lease (RelaySettings::lease).
constexpr std::int64_t kOutboxLeaseMicros = 30'000'000;

// docket's INSERT; the relay's statements in the fastest shape the schema allows: a claim
// reads its rows and writes one lease run, and the marks name the run's range of sequences
// (the bench's workload has no keys, no parked rows and no failures, so a claim is one
// run).
constexpr const char* kOutboxInsertSql =
    "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, "
    "message_source, causation_id, correlation_id, traceparent, tracestate, created_at, "
    "attempts, next_attempt_at, status) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 0)";
constexpr const char* kDropOverSql = "DELETE FROM docket_outbox_leases WHERE lease_until <= ?1";
constexpr const char* kClaimSql =
    "SELECT sequence, id, tenant, event_type, payload, occurred_at, message_source, "
    "causation_id, correlation_id, traceparent, tracestate, created_at, status, attempts, "
    "next_attempt_at, last_error, done_at FROM docket_outbox WHERE status = 0 AND "
    "next_attempt_at <= ?1 AND sequence > coalesce((SELECT max(last_sequence) FROM "
    "docket_outbox_leases), 0) ORDER BY sequence LIMIT ?2";
constexpr const char* kLeaseSql =
    "INSERT INTO docket_outbox_leases (first_sequence, last_sequence, token, lease_until) "
    "VALUES (?1, ?2, ?3, ?4)";
constexpr const char* kCompleteSql =
    "UPDATE docket_outbox SET status = 1, done_at = ?3 WHERE sequence BETWEEN ?1 AND ?2 AND "
    "status = 0";
constexpr const char* kReleaseSql = "DELETE FROM docket_outbox_leases WHERE first_sequence = ?1";

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
      drop_over_(db_, kDropOverSql),
      claim_(db_, kClaimSql),
      lease_(db_, kLeaseSql),
      complete_(db_, kCompleteSql),
      release_(db_, kReleaseSql) {}

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
  std::size_t rows = 0;
  begin_.run();
  try {
    drop_over_.bind_int64(1, now);
    drop_over_.run();
    claim_.bind_int64(1, now);
    claim_.bind_int64(2, static_cast<std::int64_t>(batch_));
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
    if (rows > 0) {
      lease_.bind_int64(1, claimed_[0].first);
      lease_.bind_int64(2, claimed_[rows - 1].first);
      lease_.bind_text(3, token);
      lease_.bind_int64(4, now + kOutboxLeaseMicros);
      lease_.run();
    }
    commit_.run();
  } catch (...) {
    db_.rollback_and_rethrow();
  }
  RelayTally tally{.passes = 1, .claimed = rows, .published = 0, .not_done = 0};
  if (rows == 0) {
    return tally;
  }
  for (std::size_t r = 0; r < rows; ++r) {
    log_.record(claimed_[r].second);
  }
  begin_.run();
  try {
    complete_.bind_int64(1, claimed_[0].first);
    complete_.bind_int64(2, claimed_[rows - 1].first);
    complete_.bind_int64(3, now_micros());
    tally.published = static_cast<std::size_t>(complete_.run());
    tally.not_done = rows - tally.published;
    release_.bind_int64(1, claimed_[0].first);
    release_.run();
    commit_.run();
  } catch (...) {
    db_.rollback_and_rethrow();
  }
  return tally;
}

}  // namespace docket::bench
