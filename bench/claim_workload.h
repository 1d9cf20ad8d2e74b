// What `docket bench claim` does per message, shared by docket's side and the raw
// baselines so that both issue the very same statements with the very same values.
//
// One claim cycle per delivery, as a claim-inbox consumer (docket/inbox/claim_runner.h) pays
// for it: try_claim the entry (tenant, message id, handler type) for the thread's owner
// with a lease; when it claimed, run the handler, which writes one effect
// (claim_effect.h; none under --no-effect); then mark the entry processed. A delivery of
// a message handled already is refused by try_claim and costs that one call. A run's
// entries and effects are told apart from earlier runs' by their handler type, the run
// id; owners are "<run id>/<thread>".
//
// Thread-safety: constants and plain values.
#ifndef DOCKET_BENCH_CLAIM_WORKLOAD_H_
#define DOCKET_BENCH_CLAIM_WORKLOAD_H_

#include <chrono>
#include <cstdint>
#include <string_view>

#include "docket/core/tenant.h"

namespace docket::bench {

// The claim runner's default lease (ClaimRunnerSettings).
inline constexpr std::chrono::seconds kBenchClaimLease{30};
// Claims of a benchmark are untenanted: the ambient tenant docket records then.
inline constexpr std::string_view kBenchClaimTenant = kUntenantedSentinel;

// What one side's claim cycles returned.
struct ClaimCycleCounts {
  std::uint64_t claimed = 0;    // try_claim answered kClaimed
  std::uint64_t processed = 0;  // mark_processed changed the entry
  // try_claim refused: the message was processed already, or another thread held it
  // (a redelivery running beside its first delivery).
  std::uint64_t skipped = 0;
  std::uint64_t effects = 0;  // effects the handler wrote

  ClaimCycleCounts& operator+=(const ClaimCycleCounts& other) noexcept {
    claimed += other.claimed;
    processed += other.processed;
    skipped += other.skipped;
    effects += other.effects;
    return *this;
  }
};

// What a side's database holds for one run (one handler type) afterwards.
struct ClaimRows {
  std::int64_t entries = 0;    // of any status
  std::int64_t processed = 0;  // status processed
  std::int64_t effects = 0;    // effect items or rows of the run
  // Distinct message ids among them: with `effects`, exactly one effect per message
  // when both equal the run's messages.
  std::int64_t effect_messages = 0;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_CLAIM_WORKLOAD_H_
