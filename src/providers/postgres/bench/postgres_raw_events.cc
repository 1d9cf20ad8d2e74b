#include "postgres_raw_events.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "postgres_raw_pg_params.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// The version read on a conflict, and the load.
constexpr const char* kVersionSql =
    "SELECT version FROM docket_events "
    "WHERE tenant = $1 AND aggregate_type = $2 AND aggregate_id = $3 "
    "ORDER BY version DESC LIMIT 1";
constexpr const char* kLoadSql =
    "SELECT global_position, version, event_id::text, event_type, payload, correlation_id, "
    "causation_id, traceparent, tracestate, occurred_at FROM docket_events WHERE tenant = $1 AND "
    "aggregate_type = $2 "
    "AND aggregate_id = $3 AND version >= $4 ORDER BY version";

constexpr std::array<Oid, 3> kVersionTypes{kPgText, kPgText, kPgText};
constexpr std::array<Oid, 4> kLoadTypes{kPgText, kPgText, kPgText, kPgInt8};

constexpr const char* kVersion = "raw_ev_version";
constexpr const char* kLoad = "raw_ev_load";

// The append of `events` events: one autocommit statement, so one round trip. The
// version check is a CTE the INSERT selects from, so a stale expectation inserts
// nothing; positions come from the identity column's own default. The version is read
// with ORDER BY ... LIMIT 1: the generic plan of max() reads the whole stream. It does
// what any event store's append must, and no more: ORDER BY makes positions follow
// versions (a VALUES list's order is not promised to the INSERT), and RETURNING tells
// the caller where its events landed, as the SQLite raw side's INSERTs do.
//   $1..$3 the stream, $4 the expected version, then per event i (from 0) its id at
//   $5 + 2i and its occurred_at at $6 + 2i; type and payload are constants of the
//   workload, bound once as $5 + 2n and $6 + 2n.
std::string append_sql(std::size_t events) {
  std::string sql =
      "WITH cur AS (SELECT coalesce((SELECT version FROM docket_events "
      "WHERE tenant = $1 AND aggregate_type = $2 AND aggregate_id = $3 "
      "ORDER BY version DESC LIMIT 1), -1) AS v) "
      "INSERT INTO docket_events (tenant, aggregate_type, aggregate_id, version, event_id, "
      "event_type, payload, occurred_at) SELECT $1, $2, $3, cur.v + e.i, e.id::uuid, $" +
      std::to_string(5 + 2 * events) + ", $" + std::to_string(6 + 2 * events) +
      ", e.at FROM cur, (VALUES ";
  for (std::size_t i = 0; i < events; ++i) {
    sql += (i == 0 ? "(" : ", (") + std::to_string(i + 1) + ", $" + std::to_string(5 + 2 * i) +
           "::text, $" + std::to_string(6 + 2 * i) + "::int8)";
  }
  sql += ") AS e(i, id, at) WHERE cur.v = $4 ORDER BY e.i RETURNING global_position";
  return sql;
}

constexpr const char* kUniqueViolation = "23505";

}  // namespace

RawEventsPostgres::RawEventsPostgres(const std::string& url) : db_(url) {
  db_.prepare(kVersion, kVersionSql, kVersionTypes);
  db_.prepare(kLoad, kLoadSql, kLoadTypes);
}

const char* RawEventsPostgres::append_statement(std::size_t events) {
  if (events >= append_names_.size()) {
    append_names_.resize(events + 1);
  }
  std::string& name = append_names_[events];
  if (name.empty()) {
    std::vector<Oid> types{kPgText, kPgText, kPgText, kPgInt8};
    for (std::size_t i = 0; i < events; ++i) {
      types.push_back(kPgText);
      types.push_back(kPgInt8);
    }
    types.push_back(kPgText);
    types.push_back(kPgBytea);
    name = "raw_ev_append_" + std::to_string(events);
    db_.prepare(name, append_sql(events), types);
  }
  return name.c_str();
}

std::int64_t RawEventsPostgres::stream_version(const AppendCall& call) {
  const std::array params{pg_text(kBenchStreamTenant), pg_text(call.aggregate_type),
                          pg_text(call.aggregate_id)};
  const RawPgResult r = db_.query(kVersion, params);
  return PQntuples(r.get()) == 0 ? -1 : std::strtoll(PQgetvalue(r.get(), 0, 0), nullptr, 10);
}

void RawEventsPostgres::append(const AppendCall& call, StreamVersions& versions,
                               AppendCounts& counts) {
  const std::int64_t expected = versions.get(call.stream);
  const char* statement = append_statement(call.events);
  const PgInt8 expected_param(expected);
  const PgInt8 occurred_at(now_micros());
  std::vector<RawPgParam>& params = params_;
  params.clear();
  params.push_back(pg_text(kBenchStreamTenant));
  params.push_back(pg_text(call.aggregate_type));
  params.push_back(pg_text(call.aggregate_id));
  params.push_back(expected_param.param());
  for (std::size_t e = 0; e < call.events; ++e) {
    params.push_back(pg_text(call.ids->id(call.first_id + e)));
    params.push_back(occurred_at.param());
  }
  params.push_back(pg_text(kBenchEventName));
  params.push_back(pg_bytea(kBenchEventBody));
  RawPgResult r = db_.try_query(statement, params);
  bool inserted = false;
  if (PQresultStatus(r.get()) == PGRES_TUPLES_OK) {
    inserted = PQntuples(r.get()) > 0;
  } else {
    const char* state = PQresultErrorField(r.get(), PG_DIAG_SQLSTATE);
    if (state == nullptr || std::strcmp(state, kUniqueViolation) != 0) {
      db_.fail(std::move(r), "appending events");
    }
  }
  if (!inserted) {  // a stale expectation, or a concurrent appender took the version
    versions.set(call.stream, stream_version(call));
    ++counts.conflicts;
    return;
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
