// docket's side of `docket bench claim`: the real public API. Each thread's session
// is a ClaimRunner over the claim inbox store opened on the docket side, named by the
// thread's owner, whose handler writes the message's effect (claim_effect.h) or, under
// --no-effect, does nothing: what it pays per message is what a claim-inbox consumer
// pays (try_claim, the handler, mark_processed; for a batch, try_claim_batch, the
// handlers, mark_processed_batch).
//
// Thread-safety: the store is shared by every thread; each thread has its own session.
#ifndef DOCKET_BENCH_DOCKET_CLAIM_SIDE_H_
#define DOCKET_BENCH_DOCKET_CLAIM_SIDE_H_

#include <string_view>

#include "claim_session.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/inbox/claim_runner.h"

namespace docket::bench {

class DocketClaimSession final : public ClaimSession {
 public:
  // The store must outlive the session.
  DocketClaimSession(ClaimInboxStore& store, std::string_view handler_type, std::string_view owner);

  // kProcessed counts a claim and a mark, kSuperseded (the lease ran out before the
  // mark: never within a bench's lease) a claim only, the other outcomes a skip.
  void cycle(std::string_view message_id, ClaimEffectWriter* effect,
             ClaimCycleCounts& counts) override;
  // ClaimRunner::run_batch, counted as cycle() counts each message.
  void cycle_batch(std::span<const std::string_view> message_ids, ClaimEffectWriter* effect,
                   ClaimCycleCounts& counts) override;

 private:
  ClaimRunner runner_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_DOCKET_CLAIM_SIDE_H_
