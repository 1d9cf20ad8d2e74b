#include "event_checks.h"

#include <array>
#include <chrono>
#include <cstdlib>

#include "event_workload.h"
#include "raw_pg_params.h"
#include "raw_postgres.h"
#include "raw_sqlite.h"

namespace docket::bench {
namespace {

// Per stream: its event count and lowest and highest version; then per aggregate type.
#define DOCKET_STREAM_STATS_SQL(tenant, type)                                               \
  "SELECT count(*), coalesce(sum(n), 0), "                                                  \
  "coalesce(sum(CASE WHEN lo = 0 AND hi = n - 1 THEN 0 ELSE 1 END), 0) FROM "               \
  "(SELECT count(*) AS n, min(version) AS lo, max(version) AS hi FROM docket_events WHERE " \
  "tenant = " tenant " AND aggregate_type = " type " GROUP BY aggregate_id) AS per_stream"

constexpr const char* kSqliteSql = DOCKET_STREAM_STATS_SQL("?1", "?2");
constexpr const char* kPostgresSql = DOCKET_STREAM_STATS_SQL("$1", "$2");
#undef DOCKET_STREAM_STATS_SQL

StoredStreams sqlite_streams(const std::string& path, std::string_view aggregate_type) {
  RawSqlite db(path, std::chrono::milliseconds(30'000));
  RawStatement stats(db, kSqliteSql);
  stats.bind_text(1, kBenchStreamTenant);
  stats.bind_text(2, aggregate_type);
  stats.step();
  const StoredStreams stored{.streams = stats.column_int64(0),
                             .events = stats.column_int64(1),
                             .broken_streams = stats.column_int64(2)};
  stats.reset();
  return stored;
}

StoredStreams postgres_streams(const std::string& url, std::string_view aggregate_type) {
  RawPostgres db(url);
  db.prepare("stream_stats", kPostgresSql, std::array<Oid, 2>{kPgText, kPgText});
  const std::array params{pg_text(kBenchStreamTenant), pg_text(aggregate_type)};
  const RawPgResult r = db.query("stream_stats", params);
  auto value = [&](int column) {
    return std::strtoll(PQgetvalue(r.get(), 0, column), nullptr, 10);
  };
  return StoredStreams{.streams = value(0), .events = value(1), .broken_streams = value(2)};
}

}  // namespace

StoredStreams stored_streams(BenchProvider provider, const std::string& db,
                             std::string_view aggregate_type) {
  return provider == BenchProvider::kPostgres ? postgres_streams(db, aggregate_type)
                                              : sqlite_streams(db, aggregate_type);
}

}  // namespace docket::bench
