// `docket bench inbox`: docket's transactional inbox against the raw limit of the same
// work, in one run.
//
// N messages (a share of them delivered twice, see DeliveryPlan) are dispatched through
// docket's InboxDispatcher, whose one handler inserts one effect row through the unit
// of work's transaction; the same deliveries are then issued as the same SQL directly
// through the database's C API (the provider's raw baseline, e.g. RawInboxSqlite), in the same
// transaction shape, on a twin database of the same schema and size. The two sides alternate in
// slices of about kSliceDeliveries (see run_side_by_side). Rates are deliveries per second (a
// duplicate delivery is a dispatch call too); the ratio is docket's rate over the raw rate.
//
// Where the provider has one, a commit-latency probe runs after the two sides (single-row
// autocommit inserts at the same thread count): the floor of any durable inbox, printed
// with docket's rate over it.
//
// Afterwards both databases are checked: every delivery returned an outcome
// (processed + skipped_duplicates = deliveries), and there is exactly one dedup row and
// one effect row per distinct message. A failed check is listed in problems().
//
// Thread-safety: run_inbox_bench() may be called from one thread at a time per store.
#ifndef DOCKET_BENCH_INBOX_BENCH_H_
#define DOCKET_BENCH_INBOX_BENCH_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench_store.h"
#include "docket/inbox/inbox_options.h"
#include "inbox_workload.h"
#include "message_ids.h"
#include "side_by_side.h"

namespace docket::bench {

struct InboxBenchOptions {
  // Deliveries per alternation slice, rounded up to a multiple of batch * threads.
  static constexpr std::size_t kSliceDeliveries = 1'000;
  static constexpr std::size_t kDefaultSegmentDeliveries = 100'000;
  static constexpr std::size_t kCommitProbeCommits = 2'000;

  // The message ids are made before the run, 36 bytes each: at most 360 MB.
  static constexpr std::size_t kMaxMessages = 10'000'000;

  std::string store_url;
  std::size_t messages = 0;  // measured
  // Messages dispatched first, as a run of their own (their own ids and consumer, the
  // same duplicate share, alternating between the sides), untimed and unchecked, so a
  // server that speeds up as it warms is measured warm.
  std::size_t warmup = 0;
  double duplicate_share = 0.5;
  std::size_t batch = 1;  // messages per transaction; 1 dispatches one by one
  std::size_t threads = 1;
  IdOrder ids = IdOrder::kTimeOrdered;
  // When docket's dispatcher checks for a duplicate (docket/inbox/inbox_options.h); the raw
  // side does the same work either way.
  DedupCheck dedup = DedupCheck::kBeforeHandlers;
  // Deliveries per reported segment (rates per segment show whether the rate decays
  // as the tables grow); 0 for kDefaultSegmentDeliveries.
  std::size_t segment_deliveries = 0;
};

struct InboxSideReport {
  DispatchCounts counts;
  std::int64_t dedup_rows = 0;  // this run's rows in the database afterwards
  std::int64_t effects = 0;
  double seconds = 0;
  double rate = 0;  // deliveries per second
};

struct InboxBenchReport {
  InboxBenchOptions options;
  BenchStore store;
  std::string consumer_id;  // unique per run: the run's rows are counted by it
  std::size_t deliveries = 0;
  std::size_t duplicated = 0;  // messages delivered twice
  InboxSideReport docket;
  InboxSideReport raw;
  double ratio = 0;  // docket.rate / raw.rate
  // Round trips per delivery, docket's and the raw baseline's, where the provider
  // counts them (a server; not an embedded database).
  std::optional<std::array<double, 2>> round_trips_per_delivery;
  // The commit-latency limit, where the provider has a probe: single-row autocommit
  // inserts per second at the same thread count, measured right after the run
  // (kCommitProbeCommits of them), and docket's rate over it.
  std::optional<double> commit_limit_rate;
  std::optional<double> commit_limit_ratio;
  std::uint64_t peak_rss_bytes = 0;
  SideBySideTimings timings;
  std::vector<SpanTiming> segments;   // the slices merged per segment_deliveries
  std::vector<std::string> problems;  // failed checks; empty when the run is consistent

  bool ok() const noexcept { return problems.empty(); }
};

// Throws InvalidInputError / ConfigurationError for unusable options (no messages, a
// batch or thread count of 0, a store URL a benchmark cannot run on), and
// InfrastructureError or whatever docket threw when a side fails outright.
InboxBenchReport run_inbox_bench(const InboxBenchOptions& options);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_INBOX_BENCH_H_
