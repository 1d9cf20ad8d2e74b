// An in-process transport: a bounded channel between a relay's thread and a consumer's
// thread, with acknowledgements, redelivery of what was not acknowledged, and injected
// faults for tests and demos.
//
//   publish()  blocks while `capacity` messages wait (back-pressure on the relay);
//   receive()  hands out the next delivery; it stays unacknowledged until ack();
//   recover()  puts every unacknowledged delivery back (what a broker does when a
//              consumer's connection dies), marked as a redelivery.
//
// Faults (each a probability in [0, 1]):
//   drop_ack         an ack() is lost: the message is delivered again
//   duplicate        a publish is delivered twice
//   delay            a message is held back until `delay_span` later receives
//   reorder          a message is queued at an earlier place instead of the tail
//   publish_failure  publish() throws TransportError (the relay backs off and retries)
// Each decision is a hash of (seed, message id, what is decided, how often it was
// decided for that message), never of timing, so a run is reproducible from its seed
// whatever the threads' interleaving.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_TRANSPORTS_IN_PROCESS_TRANSPORT_H_
#define DOCKET_TRANSPORTS_IN_PROCESS_TRANSPORT_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "docket/transports/transport.h"

namespace docket {

struct TransportFaults {
  double drop_ack = 0;
  double duplicate = 0;
  double delay = 0;
  double reorder = 0;
  double publish_failure = 0;
  std::size_t delay_span = 8;
  std::uint64_t seed = 1;
};

// One delivery of a message. `tag` identifies it for ack().
struct Delivery {
  TransportMessage message;
  std::uint64_t tag = 0;
  bool redelivered = false;  // an earlier delivery of this copy was not acknowledged
  bool duplicate = false;    // a second copy the transport made of one publish
};

// Counters since construction.
struct TransportStats {
  std::uint64_t published = 0;         // publish() calls that succeeded
  std::uint64_t publish_failures = 0;  // publish() calls that threw
  std::uint64_t deliveries = 0;        // receive() results
  std::uint64_t redeliveries = 0;      // deliveries with redelivered set
  std::uint64_t duplicates = 0;        // deliveries with duplicate set
  std::uint64_t acked = 0;
  std::uint64_t dropped_acks = 0;
  std::uint64_t delayed = 0;
  std::uint64_t reordered = 0;
};

class InProcessTransport final : public Transport {
 public:
  // Throws ConfigurationError for a capacity of 0, a probability outside [0, 1] or a
  // delay_span of 0.
  explicit InProcessTransport(std::size_t capacity, TransportFaults faults = {});

  void publish(const TransportMessage& message) override;

  // The next delivery, waiting up to `wait` for one; nullopt when none came or the
  // transport is closed and drained.
  std::optional<Delivery> receive(std::chrono::milliseconds wait);

  // Acknowledges a delivery (unknown tags are ignored: the delivery was recovered).
  void ack(std::uint64_t tag);

  // Requeues every unacknowledged delivery; returns how many.
  std::size_t recover();

  // Wakes every waiter; later publishes throw TransportError, receives drain the queue.
  void close();

  // True when nothing is queued, held back or unacknowledged.
  bool idle() const;

  // Replaces the fault settings (validated as in the constructor).
  void set_faults(TransportFaults faults);

  TransportStats stats() const;

  // Messages whose last publish failed (an injected publish failure) and whose retry
  // has not succeeded yet: the only ones whose attempt count the transport keeps, so
  // that its memory stays bounded however many messages pass through it.
  std::size_t messages_awaiting_retry() const;

 private:
  struct Copy {
    TransportMessage message;
    bool redelivered = false;
    bool duplicate = false;
    std::uint32_t received = 0;  // deliveries of this copy so far
  };
  struct Held {
    Copy copy;
    std::size_t remaining;  // receives until released
  };

  bool decide(double probability, const std::string& id, std::string_view what,
              std::uint64_t nth) const;
  void enqueue_locked(Copy copy, bool may_reorder);
  void release_held_locked(bool all);

  const std::size_t capacity_;
  TransportFaults faults_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Copy> queue_;
  std::deque<Held> held_;
  std::map<std::uint64_t, Copy> unacked_;
  // Failed publish attempts of each message not yet published: the nth attempt's fault
  // decisions depend on n. Erased when a publish is taken.
  std::map<std::string, std::uint64_t, std::less<>> publish_attempts_;
  std::uint64_t next_tag_ = 1;
  bool closed_ = false;
  TransportStats stats_;
};

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_IN_PROCESS_TRANSPORT_H_
