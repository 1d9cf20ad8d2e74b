#include "providers/sqlite/sqlite_outbox_leases.h"

#include <array>
#include <string>

#include "providers/sqlite/sqlite_outbox_rows.h"

namespace docket::sqlite::detail {
namespace {

// A candidate: pending, due, in no live run, and its key's earliest open row (no row of
// its tenant and key with a lower sequence is pending or parked: docket_outbox_key_held).
const std::string kCandidatesSql =
    std::string("SELECT ") + kOutboxColumns +
    " FROM docket_outbox WHERE status = 0 AND next_attempt_at <= ?1 AND NOT " +
    std::string(kRowLeased) +
    " AND (ordering_key IS NULL OR NOT EXISTS (SELECT 1 FROM docket_outbox AS e WHERE "
    "e.tenant = docket_outbox.tenant AND e.ordering_key = docket_outbox.ordering_key AND "
    "e.sequence < docket_outbox.sequence AND e.ordering_key IS NOT NULL AND "
    "e.status IN (0, 2))) ORDER BY sequence LIMIT ?2";

// The open (pending or parked) rows between two sequences, read from the two partial
// indexes alone: a claim's run must not cover one it did not take.
constexpr const char* kOpenCountSql =
    "SELECT (SELECT count(*) FROM docket_outbox WHERE status = 0 AND sequence BETWEEN ?1 AND ?2) "
    "+ (SELECT count(*) FROM docket_outbox WHERE status = 2 AND sequence BETWEEN ?1 AND ?2)";
constexpr const char* kOpenSequencesSql =
    "SELECT sequence FROM docket_outbox WHERE status = 0 AND sequence BETWEEN ?1 AND ?2 "
    "UNION ALL SELECT sequence FROM docket_outbox WHERE status = 2 AND sequence BETWEEN ?1 AND "
    "?2 ORDER BY 1";

constexpr const char* kInsertRunSql =
    "INSERT INTO docket_outbox_leases (first_sequence, last_sequence, token, lease_until) "
    "VALUES (?1, ?2, ?3, ?4)";

struct Run {
  std::int64_t first;
  std::int64_t last;
};

void insert_run(Connection& connection, Run run, std::string_view token,
                std::int64_t lease_until_us) {
  const std::array<ParamView, 4> params{ParamView(run.first), ParamView(run.last), ParamView(token),
                                        ParamView(lease_until_us)};
  connection.exec_views(kInsertRunSql, params);
}

// `leased` (in sequence order) cut into runs at every open row between them it does not
// hold. The common case, no such row, is one count over the partial indexes.
std::vector<Run> runs_of(Connection& connection, const std::vector<OutboxRecord>& leased) {
  const Run whole{leased.front().sequence, leased.back().sequence};
  const std::array<ParamView, 2> range{ParamView(whole.first), ParamView(whole.last)};
  std::int64_t open = 0;
  connection.for_each_row(kOpenCountSql, range, [&](const RowView& row) { open = row.int64(0); });
  if (open == static_cast<std::int64_t>(leased.size())) {
    return {whole};
  }
  std::vector<Run> runs;
  std::size_t next = 0;  // the next leased row, in sequence order
  bool in_run = false;
  connection.for_each_row(kOpenSequencesSql, range, [&](const RowView& row) {
    const std::int64_t sequence = row.int64(0);
    if (next < leased.size() && leased[next].sequence == sequence) {
      if (in_run) {
        runs.back().last = sequence;
      } else {
        runs.push_back({sequence, sequence});
        in_run = true;
      }
      ++next;
    } else {
      in_run = false;
    }
  });
  return runs;
}

}  // namespace

std::vector<OutboxRecord> lease_due_rows(Connection& connection, std::string_view token,
                                         std::int64_t now_us, std::int64_t lease_until_us,
                                         std::size_t limit) {
  const std::array<ParamView, 1> now{ParamView(now_us)};
  connection.exec_views("DELETE FROM docket_outbox_leases WHERE lease_until <= ?1", now);
  const std::array<ParamView, 2> params{ParamView(now_us),
                                        ParamView(static_cast<std::int64_t>(limit))};
  std::vector<OutboxRecord> leased = query_outbox_records(connection, kCandidatesSql, params);
  if (!leased.empty()) {
    for (const Run& run : runs_of(connection, leased)) {
      insert_run(connection, run, token, lease_until_us);
    }
  }
  return leased;
}

void release_finished_runs(Connection& connection, std::string_view token) {
  const std::array<ParamView, 1> params{ParamView(token)};
  connection.exec_views(
      "DELETE FROM docket_outbox_leases WHERE token = ?1 AND NOT EXISTS (SELECT 1 FROM "
      "docket_outbox WHERE status = 0 AND sequence BETWEEN docket_outbox_leases.first_sequence "
      "AND docket_outbox_leases.last_sequence)",
      params);
}

void cut_from_run(Connection& connection, std::string_view token, std::int64_t sequence) {
  const std::array<ParamView, 2> params{ParamView(token), ParamView(sequence)};
  bool found = false;
  Run run{};
  std::int64_t lease_until_us = 0;
  connection.for_each_row(
      "SELECT first_sequence, last_sequence, lease_until FROM docket_outbox_leases "
      "WHERE token = ?1 AND first_sequence <= ?2 AND last_sequence >= ?2",
      params, [&](const RowView& row) {
        found = true;
        run = {row.int64(0), row.int64(1)};
        lease_until_us = row.int64(2);
      });
  if (!found) {
    return;
  }
  const std::array<ParamView, 1> first{ParamView(run.first)};
  connection.exec_views("DELETE FROM docket_outbox_leases WHERE first_sequence = ?1", first);
  if (run.first < sequence) {
    insert_run(connection, {run.first, sequence - 1}, token, lease_until_us);
  }
  if (sequence < run.last) {
    insert_run(connection, {sequence + 1, run.last}, token, lease_until_us);
  }
}

}  // namespace docket::sqlite::detail
