// `docket bench claim`: docket's claim inbox against the raw limit of the same
// statements, in one run.
//
// N messages, some delivered twice (--duplicates, as DeliveryPlan spreads them), one
// claim cycle per delivery (or per batch of deliveries, --batch) (claim_workload.h: try_claim; when
// it claimed, the handler's effect, claim_effect.h, and mark_processed), through a ClaimRunner over
// docket's ClaimInboxStore; the same cycles are then issued as the provider's own claim statements
// directly through the database's C API or client (the provider's raw baseline, e.g.
// RawClaimSqlite), in the same transaction shape and with the same effect writer, on a twin
// database of the same schema. The two sides alternate in slices of about kSliceMessages (see
// run_side_by_side). Rates are deliveries per second; the handled rate is distinct messages per
// second; the ratio is docket's rate over the raw rate.
//
// Afterwards both databases are checked, read natively: every message was claimed and
// marked once (claimed = processed = messages), every other delivery skipped, the run's
// handler type has exactly one entry per message, every one processed, and the run has
// exactly one effect per message (effects = distinct message ids among them = messages;
// none under --no-effect). A failed check is listed in problems.
//
// Thread-safety: run_claim_bench() may be called from one thread at a time per store.
#ifndef DOCKET_BENCH_CLAIM_BENCH_H_
#define DOCKET_BENCH_CLAIM_BENCH_H_

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "bench_store.h"
#include "claim_workload.h"
#include "side_by_side.h"

namespace docket::bench {

struct ClaimBenchOptions {
  // Short slices (each message is two commits) alternate the sides often enough that
  // fsync latency drifting over seconds reaches both alike.
  static constexpr std::size_t kSliceMessages = 200;
  static constexpr std::size_t kDefaultMessages = 20'000;
  // The message ids are made before the run, 36 bytes each: at most 360 MB.
  static constexpr std::size_t kMaxMessages = 10'000'000;

  std::string store_url;
  std::size_t messages = kDefaultMessages;  // measured
  // Messages claimed before the measured ones, alternating as they do but untimed, so
  // a server that speeds up as it warms is measured warm. The checks count them too.
  std::size_t warmup = 0;
  std::size_t threads = 1;
  // Share of the messages delivered a second time, 0 to 1 (the warm-up's too).
  double duplicate_share = 0.0;
  // Whether the handler writes an effect per message (--no-effect: false).
  bool effect = true;
  // Deliveries a thread receives together and claims and marks as one batch
  // (ClaimRunner::run_batch), 1 to kMaxClaimBatch; 1 runs each on its own. A batch
  // ends before a message it holds already (a redelivery close behind its first).
  std::size_t batch = 1;

  std::size_t total_messages() const noexcept { return warmup + messages; }
};

struct ClaimSideReport {
  ClaimCycleCounts counts;
  ClaimRows rows;  // this run's entries in the database afterwards
  double seconds = 0;
  double rate = 0;          // deliveries (claim cycles) per second
  double handled_rate = 0;  // measured messages per second
};

struct ClaimBenchReport {
  ClaimBenchOptions options;
  BenchStore store;
  std::string run_id;                    // the handler type of the run's entries
  std::size_t deliveries = 0;            // measured
  std::size_t total_deliveries = 0;      // warm-up and measured
  std::size_t duplicate_deliveries = 0;  // of the measured
  ClaimSideReport docket;
  ClaimSideReport raw;
  double ratio = 0;  // docket.rate / raw.rate
  // Round trips per delivery, the handler's effect included, docket's and the raw
  // side's (indexed by Side), where the provider counts them.
  std::optional<std::array<double, 2>> round_trips_per_message;
  SideBySideTimings timings;
  std::vector<std::string> problems;  // failed checks; empty when the run is consistent

  bool ok() const noexcept { return problems.empty(); }
};

// Throws InvalidInputError / ConfigurationError for unusable options (messages,
// threads or the duplicate share out of range, a store URL a benchmark cannot run on), and
// InfrastructureError or whatever docket threw when a side fails outright.
ClaimBenchReport run_claim_bench(const ClaimBenchOptions& options);

}  // namespace docket::bench

#endif  // DOCKET_BENCH_CLAIM_BENCH_H_
