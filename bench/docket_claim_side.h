// docket's side of `docket bench claim`: the real public API. Each thread's session
// is a ClaimRunner over the claim inbox store opened on the docket side, named by the
// thread's owner, running a handler that does nothing: what remains per message is the
// claim cycle a claim-inbox consumer pays for (try_claim, then mark_processed).
//
// Thread-safety: the store is shared by every thread; each thread has its own Session.
#ifndef DOCKET_BENCH_DOCKET_CLAIM_SIDE_H_
#define DOCKET_BENCH_DOCKET_CLAIM_SIDE_H_

#include <functional>
#include <string_view>

#include "claim_session.h"
#include "docket/claim_inbox_store.h"
#include "docket/claim_runner.h"

namespace docket::bench {

class DocketClaimSession final : public ClaimSession {
 public:
  // The store must outlive the session.
  DocketClaimSession(ClaimInboxStore& store, std::string_view handler_type, std::string_view owner);

  // kProcessed counts a claim and a mark, kSuperseded (the lease ran out before the
  // mark: never within a bench's lease) a claim only.
  void cycle(std::string_view message_id, ClaimCycleCounts& counts) override;

 private:
  ClaimRunner runner_;
  std::function<void()> handler_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_DOCKET_CLAIM_SIDE_H_
