// The outbox relay: moves staged messages from the outbox store to a transport, at
// least once, in sequence order within each claimed batch.
//
// One pass (run_once):
//   1. claim up to batch_size due pending rows with a fresh lease token, until
//      now + lease (on SQLite one claimer at a time, under the write lock; on
//      PostgreSQL FOR UPDATE SKIP LOCKED), so concurrent relays share the work and
//      never publish one message at the same moment while the lease lasts;
//   2. publish them through the transport as one batch (Transport::publish_batch), in
//      sequence order, each with its route (destination_of(), ordering key, headers)
//      and the outbox id verbatim as message id;
//   3. mark done exactly the messages the transport confirmed; for each other one
//      record the attempt and the transport's error (its status first: "nacked: ",
//      "unroutable: ", "retryable: ") and schedule the next attempt after
//      retry_delay(), or park it when this was attempt max_attempts. A message the
//      transport refused for good (kRefused: over the broker's size limit, ...) is
//      parked at once, its error saying so. Parked messages wait for Outbox::replay().
// A relay that dies mid-batch leaves its rows leased; another relay claims them once
// the lease has ended, so they are published again: at least once, never lost.
//
// Time comes from the Clock: tests move a ManualClock to make retries due.
//
// Thread-safety: run_once() may be called from several threads, and several relays
// may run on one store; run() blocks its thread until stopped.
#ifndef DOCKET_OUTBOX_RELAY_H_
#define DOCKET_OUTBOX_RELAY_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stop_token>

#include "docket/core/clock.h"
#include "docket/outbox/outbox_store.h"
#include "docket/outbox/relay_options.h"
#include "docket/transports/transport.h"

namespace docket {

struct RelayPass {
  std::size_t claimed = 0;
  std::size_t published = 0;    // marked done
  std::size_t retried = 0;      // failed, next attempt scheduled
  std::size_t parked = 0;       // failed for the last time
  std::size_t lost_leases = 0;  // published, but the lease had passed to another claim
};

// Totals over the relay's life.
struct RelayStats {
  std::uint64_t published = 0;
  std::uint64_t retried = 0;
  std::uint64_t parked = 0;
};

class Relay {
 public:
  // The store, transport and clock must outlive the relay.
  Relay(OutboxStore& store, Transport& transport, RelayOptions options,
        const Clock& clock = SystemClock::instance());

  // One claim-publish-record pass. Throws what the store throws (InfrastructureError)
  // and a transport's ConfigurationError (it cannot work as configured: nothing is
  // marked, the claimed rows are published again after their lease); every other
  // transport failure is recorded on its row, not thrown.
  RelayPass run_once();

  // Runs passes until `stop` is requested, waiting poll_interval (real time, woken
  // early by the stop request) after a pass that claimed nothing.
  void run(std::stop_token stop);

  RelayStats stats() const noexcept;

 private:
  OutboxStore& store_;
  Transport& transport_;
  RelayOptions options_;
  const Clock& clock_;
  std::atomic<std::uint64_t> published_ = 0;
  std::atomic<std::uint64_t> retried_ = 0;
  std::atomic<std::uint64_t> parked_ = 0;
};

}  // namespace docket

#endif  // DOCKET_OUTBOX_RELAY_H_
