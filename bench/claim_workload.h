// What `docket bench claim` does per message, shared by docket's side and the raw
// baselines so that both issue the very same statements with the very same values.
//
// One claim cycle per message, as a claim-inbox consumer (docket/claim_runner.h) pays
// for it: try_claim the entry (tenant, message id, handler type) for the thread's owner
// with a lease, then mark it processed. A run's entries are told apart from earlier
// runs' by their handler type, the run id; owners are "<run id>/<thread>".
//
// Thread-safety: constants and plain values.
#ifndef DOCKET_BENCH_CLAIM_WORKLOAD_H_
#define DOCKET_BENCH_CLAIM_WORKLOAD_H_

#include <chrono>
#include <cstdint>
#include <string_view>

#include "docket/tenant.h"

namespace docket::bench {

// The claim runner's default lease (ClaimRunnerSettings).
inline constexpr std::chrono::seconds kBenchClaimLease{30};
// Claims of a benchmark are untenanted: the ambient tenant docket records then.
inline constexpr std::string_view kBenchClaimTenant = kUntenantedSentinel;

// What one side's claim cycles returned.
struct ClaimCycleCounts {
  std::uint64_t claimed = 0;    // try_claim answered kClaimed
  std::uint64_t processed = 0;  // mark_processed changed the entry

  ClaimCycleCounts& operator+=(const ClaimCycleCounts& other) noexcept {
    claimed += other.claimed;
    processed += other.processed;
    return *this;
  }
};

// What a side's database holds for one run (one handler type) afterwards.
struct ClaimRows {
  std::int64_t entries = 0;    // of any status
  std::int64_t processed = 0;  // status processed
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_CLAIM_WORKLOAD_H_
