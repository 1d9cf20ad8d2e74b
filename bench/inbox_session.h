// One thread's connection to one side of `docket bench inbox`: docket's dispatcher
// (DocketInboxSide::Session) or a provider's raw baseline. The bench drives every side
// through this interface, so both run the same calls.
//
// Thread-safety: a session belongs to one thread at a time.
#ifndef DOCKET_BENCH_INBOX_SESSION_H_
#define DOCKET_BENCH_INBOX_SESSION_H_

#include <span>
#include <string_view>

#include "inbox_workload.h"

namespace docket::bench {

class InboxSession {
 public:
  virtual ~InboxSession() = default;

  // One message in its own transaction.
  virtual void deliver(const BenchDelivery& delivery, DispatchCounts& counts) = 0;
  // The messages in one transaction, a savepoint each.
  virtual void deliver_batch(std::span<const BenchDelivery> deliveries, DispatchCounts& counts) = 0;
};

// One thread's connection for the commit-latency limit printed beside `docket bench
// inbox`: each call commits one single-row insert on its own (a round trip and a
// durable commit), the least any inbox can do per message.
class CommitProbe {
 public:
  virtual ~CommitProbe() = default;
  // Inserts and commits one row keyed `id` (unique per call).
  virtual void commit_one(std::string_view id) = 0;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_INBOX_SESSION_H_
