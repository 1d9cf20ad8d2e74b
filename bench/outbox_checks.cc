#include "outbox_checks.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <iterator>
#include <vector>

#include "raw_pg_params.h"
#include "raw_postgres.h"
#include "raw_sqlite.h"

namespace docket::bench {
namespace {

constexpr std::chrono::milliseconds kBusyTimeout{30'000};

// The run's ids, sorted, and how many of them are done (status 1).
struct RunRows {
  std::vector<std::string> ids;
  std::int64_t done = 0;
};

RunRows sqlite_rows(const std::string& path, std::string_view run_id) {
  RawSqlite db(path, kBusyTimeout);
  RawStatement select(db, "SELECT id, status FROM docket_outbox WHERE message_source = ?1");
  select.bind_text(1, run_id);
  RunRows rows;
  while (select.step()) {
    rows.ids.emplace_back(select.column_bytes(0));
    rows.done += select.column_int64(1) == 1 ? 1 : 0;
  }
  select.reset();
  return rows;
}

RunRows postgres_rows(const std::string& url, std::string_view run_id) {
  RawPostgres db(url);
  db.prepare("run_rows", "SELECT id, status FROM docket_outbox WHERE message_source = $1",
             std::array<Oid, 1>{kPgText});
  const std::array params{pg_text(run_id)};
  const RawPgResult r = db.query("run_rows", params);
  RunRows rows;
  for (int row = 0; row < PQntuples(r.get()); ++row) {
    rows.ids.emplace_back(PQgetvalue(r.get(), row, 0));
    rows.done += std::strtoll(PQgetvalue(r.get(), row, 1), nullptr, 10) == 1 ? 1 : 0;
  }
  return rows;
}

std::uint64_t count_missing(const std::vector<std::string>& from,
                            const std::vector<std::string>& in) {
  std::vector<std::string> missing;
  std::set_difference(from.begin(), from.end(), in.begin(), in.end(), std::back_inserter(missing));
  return missing.size();
}

}  // namespace

OutboxSideCheck check_outbox_side(BenchProvider provider, const std::string& db,
                                  std::string_view run_id, const PublishLog& log) {
  RunRows rows =
      provider == BenchProvider::kPostgres ? postgres_rows(db, run_id) : sqlite_rows(db, run_id);
  std::sort(rows.ids.begin(), rows.ids.end());
  std::vector<std::string> published = log.sorted_ids();
  OutboxSideCheck check{.rows = static_cast<std::int64_t>(rows.ids.size()),
                        .done = rows.done,
                        .published = published.size()};
  published.erase(std::unique(published.begin(), published.end()), published.end());
  check.distinct = published.size();
  check.unpublished = count_missing(rows.ids, published);
  check.unknown = count_missing(published, rows.ids);
  return check;
}

std::int64_t pending_outbox_rows(BenchProvider provider, const std::string& db) {
  if (provider == BenchProvider::kPostgres) {
    return RawPostgres(db).count("SELECT count(*) FROM docket_outbox WHERE status = $1", "0");
  }
  return RawSqlite(db, kBusyTimeout)
      .count("SELECT count(*) FROM docket_outbox WHERE status = ?1", "0");
}

}  // namespace docket::bench
