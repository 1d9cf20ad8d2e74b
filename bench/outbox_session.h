// One thread's connection to one side of `docket bench outbox`: docket's Outbox and
// Relay (DocketOutboxSession) or a raw baseline (RawOutboxSqlite, RawOutboxPostgres).
// The bench drives every side through this interface, so both run the same calls.
//
// Thread-safety: a session belongs to one thread at a time.
#ifndef DOCKET_BENCH_OUTBOX_SESSION_H_
#define DOCKET_BENCH_OUTBOX_SESSION_H_

#include <cstddef>

#include "outbox_workload.h"

namespace docket::bench {

class OutboxSession {
 public:
  virtual ~OutboxSession() = default;

  // Stages message number `message` in a producer transaction of its own.
  virtual void stage(std::size_t message) = 0;

  // Stages messages first .. first + count - 1 in one transaction (set-up between
  // relay runs, not measured).
  virtual void fill(std::size_t first, std::size_t count) = 0;

  // One relay pass: claims up to the batch size of due pending rows, publishes each to
  // the side's PublishLog in sequence order and marks it done.
  virtual RelayTally relay_pass() = 0;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_OUTBOX_SESSION_H_
