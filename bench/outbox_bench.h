// `docket bench outbox`: docket's outbox and relay against the raw limit of the same
// work, in one run.
//
// Staging: `messages` messages, each in a producer transaction of its own (the stage
// INSERT alone), on `threads` threads, through Outbox::stage and through the same SQL
// issued directly (the provider's raw baseline, e.g. RawOutboxSqlite) on a twin database of the
// same schema. Relaying: for each relay count R in `relays`, R relays (threads) publish `messages`
// pending messages through a counting transport, in passes of `batch` rows (claim, publish, mark
// done per message); before every relay run after the first, both outboxes are refilled with
// `messages` messages (set-up, not measured). Both sides alternate in short slices
// (run_side_by_side). Rates are messages per second.
//
// PostgreSQL: each run has schemas of its own (docket_bench_ob_<hex>_docket and
// _raw), dropped when it ends, because a relay claims every pending row of its table
// and parallel runs must not publish each other's. SQLite: a file that already holds
// pending outbox rows is refused for the same reason.
//
// Round trips and, where the database bills them (Cosmos DB), request units are counted
// per phase, each side's own.
//
// Afterwards both databases are checked: every message the run staged was published
// at least once and marked done, nothing else was published, and both sides staged and
// published as many messages. A failed check is listed in problems.
//
// Thread-safety: run_outbox_bench() may be called from one thread at a time per store.
#ifndef DOCKET_BENCH_OUTBOX_BENCH_H_
#define DOCKET_BENCH_OUTBOX_BENCH_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bench_store.h"
#include "outbox_checks.h"
#include "outbox_workload.h"
#include "request_unit_count.h"
#include "side_by_side.h"

namespace docket::bench {

struct OutboxBenchOptions {
  static constexpr std::size_t kSliceMessages = 100;  // staged per slice
  // Per refill transaction, or fewer where one commit of the store holds fewer writes.
  static constexpr std::size_t kFillMessages = 500;

  std::string store_url;
  std::size_t messages = 2'000;
  std::size_t threads = 1;  // producers staging at once
  std::size_t batch = 100;  // rows a relay claims per pass
  // Relay counts to run; empty: 1 on SQLite, 1, 2 and 4 on PostgreSQL.
  std::vector<std::size_t> relays;
};

struct RelayRunReport {
  std::size_t relays = 0;
  std::array<RelayTally, 2> tally{};  // by Side
  SideBySideTimings timings;
  // Round trips per message relayed, by Side, where the provider counts them.
  std::optional<std::array<double, 2>> round_trips_per_message;
  // Request units per message relayed, by Side, where the database bills them.
  RequestUnitsPerItem request_units_per_message{};
};

struct OutboxBenchReport {
  OutboxBenchOptions options;  // relays as run
  BenchStore store;
  std::string run_id;  // every staged message's source
  SideBySideTimings stage;
  // Round trips per message staged, by Side, where the provider counts them.
  std::optional<std::array<double, 2>> stage_round_trips_per_message;
  // Request units per message staged, by Side, where the database bills them.
  RequestUnitsPerItem stage_request_units_per_message{};
  std::vector<RelayRunReport> relay_runs;
  std::array<OutboxSideCheck, 2> checks{};  // by Side
  std::vector<std::string> problems;

  bool ok() const noexcept { return problems.empty(); }
};

// Throws InvalidInputError / ConfigurationError for unusable options or a SQLite file
// with pending outbox rows, and InfrastructureError or whatever docket threw when a
// side fails outright.
OutboxBenchReport run_outbox_bench(OutboxBenchOptions options);

// The checks above, appended to report.problems (outbox_report.cc).
void check_outbox_report(OutboxBenchReport& report);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_OUTBOX_BENCH_H_
