// One thread's connection to one side of `docket bench claim`: docket's claim runner
// (DocketClaimSide::Session) or a provider's raw baseline. The bench drives every side
// through this interface, so both run the same calls.
//
// Thread-safety: a session belongs to one thread at a time.
#ifndef DOCKET_BENCH_CLAIM_SESSION_H_
#define DOCKET_BENCH_CLAIM_SESSION_H_

#include <string_view>

#include "claim_workload.h"

namespace docket::bench {

class ClaimSession {
 public:
  virtual ~ClaimSession() = default;

  // One claim cycle of the message (claim_workload.h): try_claim, then mark_processed
  // when it claimed; counts both in `counts`. Throws what the store threw.
  virtual void cycle(std::string_view message_id, ClaimCycleCounts& counts) = 0;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_CLAIM_SESSION_H_
