#include "raw_events_postgres.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "raw_pg_params.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// Verbatim the statements of src/providers/postgres/event_rows.cc.
constexpr const char* kVersionSql =
    "SELECT MAX(version) FROM docket_events "
    "WHERE tenant = $1 AND aggregate_type = $2 AND aggregate_id = $3";
constexpr const char* kReserveSql =
    "SELECT p FROM unnest(docket_reserve_positions($1, $2::INTEGER)) AS p";
constexpr const char* kInsertSql =
    "INSERT INTO docket_events (global_position, tenant, aggregate_type, aggregate_id, "
    "version, event_id, event_type, payload, correlation_id, causation_id, traceparent, "
    "tracestate, occurred_at) VALUES ($1, $2, $3, $4, $5, $6::uuid, $7, $8, $9, $10, $11, "
    "$12, $13)";
constexpr const char* kLoadSql =
    "SELECT global_position, version, event_id::text, event_type, payload, correlation_id, "
    "causation_id, traceparent, tracestate, occurred_at FROM docket_events WHERE tenant = $1 AND "
    "aggregate_type = $2 "
    "AND aggregate_id = $3 AND version >= $4 ORDER BY version";

constexpr std::array<Oid, 3> kVersionTypes{kPgText, kPgText, kPgText};
constexpr std::array<Oid, 2> kReserveTypes{kPgInt8, kPgInt8};
constexpr std::array<Oid, 13> kInsertTypes{kPgInt8, kPgText, kPgText,  kPgText, kPgInt8,
                                           kPgText, kPgText, kPgBytea, kPgText, kPgText,
                                           kPgText, kPgText, kPgInt8};
constexpr std::array<Oid, 4> kLoadTypes{kPgText, kPgText, kPgText, kPgInt8};

constexpr const char* kBegin = "raw_ev_begin";
constexpr const char* kCommit = "raw_ev_commit";
constexpr const char* kRollback = "raw_ev_rollback";
constexpr const char* kSavepoint = "raw_ev_savepoint";
constexpr const char* kRelease = "raw_ev_release";
constexpr const char* kRollbackTo = "raw_ev_rollback_to";
constexpr const char* kVersion = "raw_ev_version";
constexpr const char* kReserve = "raw_ev_reserve";
constexpr const char* kInsert = "raw_ev_insert";
constexpr const char* kLoad = "raw_ev_load";

constexpr const char* kUniqueViolation = "23505";

}  // namespace

RawEventsPostgres::RawEventsPostgres(const std::string& url) : db_(url) {
  db_.prepare(kBegin, "BEGIN ISOLATION LEVEL READ COMMITTED", {});
  db_.prepare(kCommit, "COMMIT", {});
  db_.prepare(kRollback, "ROLLBACK", {});
  db_.prepare(kSavepoint, "SAVEPOINT docket_append", {});
  db_.prepare(kRelease, "RELEASE SAVEPOINT docket_append", {});
  db_.prepare(kRollbackTo, "ROLLBACK TO SAVEPOINT docket_append", {});
  db_.prepare(kVersion, kVersionSql, kVersionTypes);
  db_.prepare(kReserve, kReserveSql, kReserveTypes);
  db_.prepare(kInsert, kInsertSql, kInsertTypes);
  db_.prepare(kLoad, kLoadSql, kLoadTypes);
  db_.prepare("raw_ev_tag", "SELECT ('docket_events'::regclass::oid::BIGINT & 8388607)", {});
  const RawPgResult tag = db_.query("raw_ev_tag");
  tag_ = std::strtoll(PQgetvalue(tag.get(), 0, 0), nullptr, 10);
}

std::int64_t RawEventsPostgres::stream_version(const AppendCall& call) {
  const std::array params{pg_text(kBenchStreamTenant), pg_text(call.aggregate_type),
                          pg_text(call.aggregate_id)};
  const RawPgResult r = db_.query(kVersion, params);
  return PQgetisnull(r.get(), 0, 0) ? -1 : std::strtoll(PQgetvalue(r.get(), 0, 0), nullptr, 10);
}

void RawEventsPostgres::reserve_positions(std::size_t n) {
  const PgInt8 tag(tag_);
  const PgInt8 count(static_cast<std::int64_t>(n));
  const std::array params{tag.param(), count.param()};
  const RawPgResult r = db_.query(kReserve, params);
  positions_.clear();
  for (int row = 0; row < PQntuples(r.get()); ++row) {
    positions_.push_back(std::strtoll(PQgetvalue(r.get(), row, 0), nullptr, 10));
  }
}

bool RawEventsPostgres::insert_events(const AppendCall& call, std::int64_t current) {
  const PgInt8 occurred_at(now_micros());
  for (std::size_t e = 0; e < call.events; ++e) {
    const PgInt8 position(positions_.at(e));
    const PgInt8 version(current + 1 + static_cast<std::int64_t>(e));
    const RawPgParam null{nullptr, 0, kPgBinary};
    const std::array params{position.param(),
                            pg_text(kBenchStreamTenant),
                            pg_text(call.aggregate_type),
                            pg_text(call.aggregate_id),
                            version.param(),
                            pg_text(call.ids->id(call.first_id + e)),
                            pg_text(kBenchEventName),
                            pg_bytea(kBenchEventBody),
                            null,
                            null,
                            null,
                            null,
                            occurred_at.param()};
    RawPgResult r = db_.try_query(kInsert, params);
    if (PQresultStatus(r.get()) == PGRES_COMMAND_OK) {
      continue;
    }
    const char* state = PQresultErrorField(r.get(), PG_DIAG_SQLSTATE);
    if (state != nullptr && std::strcmp(state, kUniqueViolation) == 0) {
      return false;
    }
    db_.fail(std::move(r), "inserting an event");
  }
  return true;
}

void RawEventsPostgres::append(const AppendCall& call, StreamVersions& versions,
                               AppendCounts& counts) {
  const std::int64_t expected = versions.get(call.stream);
  db_.run(kBegin);
  try {
    std::int64_t current = stream_version(call);
    bool inserted = false;
    if (current == expected) {
      db_.run(kSavepoint);
      reserve_positions(call.events);
      inserted = insert_events(call, current);
      if (inserted) {
        db_.run(kRelease);
        db_.run(kCommit);
      } else {
        db_.run(kRollbackTo);
        db_.run(kRelease);
        current = stream_version(call);
      }
    }
    if (!inserted) {
      db_.run(kRollback);
      versions.set(call.stream, current);
      ++counts.conflicts;
      return;
    }
  } catch (...) {
    db_.rollback_and_rethrow();
  }
  versions.set(call.stream, expected + static_cast<std::int64_t>(call.events));
  ++counts.ok;
  counts.events += call.events;
}

std::size_t RawEventsPostgres::load(std::string_view aggregate_type,
                                    std::string_view aggregate_id) {
  const PgInt8 from(0);
  const std::array params{pg_text(kBenchStreamTenant), pg_text(aggregate_type),
                          pg_text(aggregate_id), from.param()};
  const RawPgResult r = db_.query(kLoad, params);
  const int rows = PQntuples(r.get());
  const int columns = PQnfields(r.get());
  for (int row = 0; row < rows; ++row) {
    for (int c = 0; c < columns; ++c) {
      sink_ += static_cast<std::uint64_t>(PQgetlength(r.get(), row, c)) +
               static_cast<unsigned char>(*PQgetvalue(r.get(), row, c));
    }
  }
  return static_cast<std::size_t>(rows);
}

}  // namespace docket::bench
