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
// Pipelined passes (run, drain): the store's work and the broker's overlap, so that a
// pass costs the longest of its steps instead of their sum. Two threads the call owns
// publish batch k (step 2) and record batch k-1's results (step 3) while the calling
// thread claims batch k+1 (step 1); batch k+1 is handed over when batch k's results are
// in. On a store whose writes queue behind one lock (StoreCapabilities::
// concurrent_writers false: SQLite, memory), the calling thread records and claims in
// turn while batch k is published. So one relay holds at most three batches at once: one being
// recorded, one being published, one claimed and waiting for that publish (never more than one
// publish long). What holds per pass holds across the pipeline:
//  - order per key: batch k's rows stay leased until their results are recorded, and
//    a leased row holds its ordering key (OutboxStore::claim), so batch k+1 never holds
//    a later message of a key batch k or k-1 holds; batches are published one after
//    another, in claim order;
//  - a row is marked done only after its confirm; a failure is recorded as in
//    run_once(); stats() count the same things;
//  - leases: a waiting batch whose lease has ended by its turn (a publish longer than
//    the lease) is not published but left to its lease, which has ended, so any relay
//    claims it again (counted in expired_unpublished). Choose a lease longer than two
//    publishes.
//
// Time comes from the Clock: tests move a ManualClock to make retries due.
//
// Thread-safety: run_once(), drain() and run() may be called from several threads at
// once, and several relays may run on one store; run() and drain() block their thread
// and start a publishing and a recording thread each for as long as they run. The
// transport is called from the one, the store from the other and the calling thread
// (Transport::publish_batch and every OutboxStore are thread-safe by contract).
#ifndef DOCKET_OUTBOX_RELAY_H_
#define DOCKET_OUTBOX_RELAY_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <stop_token>

#include "docket/core/clock.h"
#include "docket/core/wake_signal.h"
#include "docket/outbox/outbox_store.h"
#include "docket/outbox/relay_options.h"
#include "docket/transports/publish_result.h"
#include "docket/transports/transport.h"

namespace docket {

// What one pass did (run_once), or the sum of a run of passes (drain).
struct RelayPass {
  std::size_t claimed = 0;
  std::size_t published = 0;    // marked done
  std::size_t retried = 0;      // failed, next attempt scheduled
  std::size_t parked = 0;       // failed for the last time
  std::size_t lost_leases = 0;  // published, but the lease had passed to another claim
  std::size_t batches = 0;      // batches published (Transport::publish_batch calls)
  // Claimed, but the lease ended while the batch waited for the publish before it:
  // not published, claimable again at once (pipelined passes only).
  std::size_t expired_unpublished = 0;
};

// Totals over the relay's life.
struct RelayStats {
  std::uint64_t published = 0;
  std::uint64_t retried = 0;
  std::uint64_t parked = 0;
  std::uint64_t claims = 0;  // claims made (the store's queries), those that found nothing too
};

class Relay {
 public:
  // The store, transport and clock must outlive the relay. With wake_ups, takes the
  // store's wake signal (OutboxStore::staged_signal), which may open a connection.
  Relay(OutboxStore& store, Transport& transport, RelayOptions options,
        const Clock& clock = SystemClock::instance());

  // One claim-publish-record pass, on the calling thread. Throws what the store throws
  // (InfrastructureError) and a transport's ConfigurationError (it cannot work as
  // configured: nothing is marked, the claimed rows are published again after their
  // lease); every other transport failure is recorded on its row, not thrown.
  RelayPass run_once();

  // Pipelined passes (above) until `max_messages` rows were claimed or a claim finds
  // nothing due; returns once every published batch's results are recorded, with the
  // passes' totals. Throws as run_once() does; when it throws, the batch being
  // published is published but not recorded, and a batch waiting is left to its
  // lease: both are published again after their lease, at least once.
  RelayPass drain(std::size_t max_messages = std::numeric_limits<std::size_t>::max());

  // Pipelined passes (above) until `stop` is requested, waiting when a claim found
  // nothing and no batch is being published: from poll_interval doubling up to
  // max_poll_interval (real time), ended early by the stop request and, with
  // wake_ups, by a producer's commit (RelaySettings). On a stop request it claims nothing more,
  // publishes the batch it has claimed, if any, records the results of every published batch and
  // returns: it leaves no row leased. Throws as drain() does.
  void run(std::stop_token stop);

  RelayStats stats() const noexcept;

 private:
  struct ClaimedBatch;

  // Step 1: claims at most `limit` rows under a fresh token.
  ClaimedBatch claim(std::size_t limit);
  // Begins the observer's span of every message of `batch`, just before its publish.
  void begin_spans(ClaimedBatch& batch) const;
  // Step 3: records `results` (one a row of `batch`, in its order) and counts them;
  // ends the batch's spans.
  RelayPass record(ClaimedBatch& batch, std::span<const PublishResult> results,
                   std::size_t publishes);
  // The pipeline of drain() and run(): claims while claiming is allowed (no stop, and
  // fewer than `max_messages` claimed); when a claim finds nothing and nothing is
  // being published, waits poll_interval if `wait_when_idle`, else returns.
  RelayPass pipeline(std::stop_token stop, std::size_t max_messages, bool wait_when_idle);

  OutboxStore& store_;
  Transport& transport_;
  RelayOptions options_;
  const Clock& clock_;
  std::shared_ptr<WakeSignal> staged_;  // null: idle waits end by time alone
  std::atomic<std::uint64_t> published_ = 0;
  std::atomic<std::uint64_t> retried_ = 0;
  std::atomic<std::uint64_t> parked_ = 0;
  std::atomic<std::uint64_t> claims_ = 0;
};

}  // namespace docket

#endif  // DOCKET_OUTBOX_RELAY_H_
