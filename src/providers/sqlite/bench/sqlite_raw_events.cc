#include "sqlite_raw_events.h"

#include <sqlite3.h>

#include <chrono>

#include "wall_clock.h"

namespace docket::bench {
namespace {

// The busy timeout docket's SQLite store uses by default (docket::sqlite::StoreOptions).

// Verbatim the statements of src/providers/sqlite/sqlite_event_rows.cc.
constexpr const char* kVersionSql =
    "SELECT MAX(version) FROM docket_events "
    "WHERE tenant = ?1 AND aggregate_type = ?2 AND aggregate_id = ?3";
constexpr const char* kInsertSql =
    "INSERT INTO docket_events (tenant, aggregate_type, aggregate_id, version, event_id, "
    "event_type, payload, correlation_id, causation_id, traceparent, tracestate, "
    "occurred_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, CAST(?7 AS BLOB), ?8, ?9, ?10, ?11, ?12) "
    "RETURNING global_position";
constexpr const char* kLoadSql =
    "SELECT global_position, version, event_id, event_type, payload, correlation_id, "
    "causation_id, traceparent, tracestate, occurred_at FROM docket_events WHERE tenant = ?1 AND "
    "aggregate_type = ?2 "
    "AND aggregate_id = ?3 AND version >= ?4 ORDER BY version";

}  // namespace

RawEventsSqlite::RawEventsSqlite(const std::string& path)
    : db_(path, kRawBusyTimeout),
      begin_(db_, "BEGIN IMMEDIATE"),
      commit_(db_, "COMMIT"),
      rollback_(db_, "ROLLBACK"),
      savepoint_(db_, "SAVEPOINT docket_append"),
      release_(db_, "RELEASE docket_append"),
      version_(db_, kVersionSql),
      insert_(db_, kInsertSql),
      load_(db_, kLoadSql) {}

std::int64_t RawEventsSqlite::stream_version(const AppendCall& call) {
  version_.bind_text(1, kBenchStreamTenant);
  version_.bind_text(2, call.aggregate_type);
  version_.bind_text(3, call.aggregate_id);
  version_.step();
  const std::int64_t version = version_.column_is_null(0) ? -1 : version_.column_int64(0);
  version_.reset();
  return version;
}

void RawEventsSqlite::insert(const AppendCall& call, std::int64_t version, std::size_t event,
                             std::int64_t occurred_at) {
  insert_.bind_text(1, kBenchStreamTenant);
  insert_.bind_text(2, call.aggregate_type);
  insert_.bind_text(3, call.aggregate_id);
  insert_.bind_int64(4, version);
  insert_.bind_text(5, call.ids->id(call.first_id + event));
  insert_.bind_text(6, kBenchEventName);
  insert_.bind_text(7, kBenchEventBody);
  for (int absent = 8; absent <= 11; ++absent) {
    insert_.bind_null(absent);
  }
  insert_.bind_int64(12, occurred_at);
  insert_.step();
  sink_ += static_cast<std::uint64_t>(insert_.column_int64(0));  // the global position
  insert_.step();
  insert_.reset();
}

void RawEventsSqlite::append(const AppendCall& call, StreamVersions& versions,
                             AppendCounts& counts) {
  const std::int64_t expected = versions.get(call.stream);
  begin_.run();
  try {
    const std::int64_t current = stream_version(call);
    if (current != expected) {
      rollback_.run();
      versions.set(call.stream, current);
      ++counts.conflicts;
      return;
    }
    const std::int64_t occurred_at = now_micros();
    savepoint_.run();
    for (std::size_t e = 0; e < call.events; ++e) {
      insert(call, current + 1 + static_cast<std::int64_t>(e), e, occurred_at);
    }
    release_.run();
    commit_.run();
  } catch (...) {
    db_.rollback_and_rethrow();
  }
  versions.set(call.stream, expected + static_cast<std::int64_t>(call.events));
  ++counts.ok;
  counts.events += call.events;
}

std::size_t RawEventsSqlite::load(std::string_view aggregate_type, std::string_view aggregate_id) {
  load_.bind_text(1, kBenchStreamTenant);
  load_.bind_text(2, aggregate_type);
  load_.bind_text(3, aggregate_id);
  load_.bind_int64(4, 0);
  std::size_t rows = 0;
  try {
    while (load_.step()) {
      // Every column read as docket reads it: integers as integers, text and blobs
      // as their bytes.
      for (int c = 0; c < load_.column_count(); ++c) {
        const int type = load_.column_type(c);
        if (type == SQLITE_INTEGER) {
          sink_ += static_cast<std::uint64_t>(load_.column_int64(c));
        } else if (type != SQLITE_NULL) {
          sink_ += load_.column_bytes(c).size();
        }
      }
      ++rows;
    }
  } catch (...) {
    load_.reset();
    throw;
  }
  load_.reset();
  return rows;
}

}  // namespace docket::bench
