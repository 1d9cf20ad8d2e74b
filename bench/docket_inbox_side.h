// docket's side of `docket bench inbox`: the real public API. An InboxDispatcher over
// the store opened on the docket side, with one handler for the bench event that
// inserts the effect row through the unit of work's native transaction wrapper (the
// provider's InboxBench::insert_effect, e.g. through docket::sqlite::Transaction).
//
// Thread-safety: the dispatcher is shared by every thread; each thread has its own
// Session (which reuses its envelopes, as a transport adapter reuses its buffers).
#ifndef DOCKET_BENCH_DOCKET_INBOX_SIDE_H_
#define DOCKET_BENCH_DOCKET_INBOX_SIDE_H_

#include <span>
#include <string>
#include <vector>

#include "bench_provider.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_store.h"
#include "inbox_session.h"

namespace docket::bench {

class DocketInboxSide {
 public:
  // `provider` writes the handler's effect row through the store's native
  // transaction; it must outlive the side.
  // `db` is the side database the store is on.
  DocketInboxSide(InboxStore& store, const std::string& db, const InboxBench& provider,
                  const std::string& consumer_id, DedupCheck dedup);

  class Session final : public InboxSession {
   public:
    explicit Session(const InboxDispatcher& dispatcher);

    void deliver(const BenchDelivery& delivery, DispatchCounts& counts) override;
    // Throws the first error a message of the batch reported: the bench expects none.
    void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts) override;

   private:
    const InboxDispatcher& dispatcher_;
    Envelope single_;
    std::vector<Envelope> batch_;
  };

  Session session() const { return Session(dispatcher_); }

 private:
  InboxDispatcher dispatcher_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_DOCKET_INBOX_SIDE_H_
