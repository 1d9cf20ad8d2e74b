// docket's side of `docket bench inbox`: the real public API. An InboxDispatcher over
// the store opened from the URL, with one handler for the bench event that inserts the
// effect row through the unit of work's native transaction wrapper
// (docket::sqlite::Transaction or docket::postgres::Transaction).
//
// Thread-safety: the dispatcher is shared by every thread; each thread has its own
// Session (which reuses its envelopes, as a transport adapter reuses its buffers).
#ifndef DOCKET_BENCH_DOCKET_INBOX_SIDE_H_
#define DOCKET_BENCH_DOCKET_INBOX_SIDE_H_

#include <span>
#include <string>
#include <vector>

#include "bench_store.h"
#include "docket/inbox_dispatcher.h"
#include "docket/inbox_store.h"
#include "inbox_workload.h"

namespace docket::bench {

class DocketInboxSide {
 public:
  // `provider` names the store's native transaction type, through which the handler
  // writes its effect row.
  DocketInboxSide(InboxStore& store, BenchProvider provider, const std::string& consumer_id);

  class Session {
   public:
    explicit Session(const InboxDispatcher& dispatcher);

    void deliver(const BenchDelivery& delivery, DispatchCounts& counts);
    // Throws the first error a message of the batch reported: the bench expects none.
    void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts);

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
