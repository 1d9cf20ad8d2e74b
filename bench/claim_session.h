// One thread's connection to one side of `docket bench claim`: docket's claim runner
// (DocketClaimSession) or a provider's raw baseline. The bench drives every side
// through this interface, so both run the same calls.
//
// Thread-safety: a session belongs to one thread at a time.
#ifndef DOCKET_BENCH_CLAIM_SESSION_H_
#define DOCKET_BENCH_CLAIM_SESSION_H_

#include <span>
#include <string_view>

#include "claim_effect.h"
#include "claim_workload.h"

namespace docket::bench {

class ClaimSession {
 public:
  virtual ~ClaimSession() = default;

  // One claim cycle of the message (claim_workload.h): try_claim; when it claimed,
  // run_effect(effect, ...) (claim_effect.h; `effect` is nullptr when the run writes
  // none), then mark_processed; when it did not, counts a skip. Throws what the store
  // or the effect threw.
  virtual void cycle(std::string_view message_id, ClaimEffectWriter* effect,
                     ClaimCycleCounts& counts) = 0;

  // The claim cycles of a batch of distinct messages received together (--batch): the
  // batch's claims, the effect of each message claimed, then the batch's marks, each
  // in as few requests as the side sends them. By default one cycle() per message, as
  // a store without batches of its own sends them (ClaimInboxStore::try_claim_batch).
  virtual void cycle_batch(std::span<const std::string_view> message_ids, ClaimEffectWriter* effect,
                           ClaimCycleCounts& counts) {
    for (const std::string_view message_id : message_ids) {
      cycle(message_id, effect, counts);
    }
  }
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_CLAIM_SESSION_H_
