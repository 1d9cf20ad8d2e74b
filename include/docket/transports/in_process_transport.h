// An in-process transport: a bounded, ordered channel between relays' threads and
// consumers' threads, on the transport SPI (docket/spi/transport.h), with injected
// faults for tests and demos.
//
//   publish_batch()  blocks while `capacity` messages wait (back-pressure on the relay);
//                    answers each message: kUnroutable for a destination in
//                    InProcessRouting::unroutable, kRefused for a message over
//                    max_message_bytes, kRetryable for an injected publish failure;
//   subscribe()      a subscription to one destination, or to every destination but
//                    the dead-letter ones (an empty destination). Every subscription
//                    competes for the messages it matches, whatever its group: the
//                    in-process transport is one consumer group.
//
// Order: messages are delivered in publish order; a message with an ordering key is
// never handed out while another delivery of its key is unsettled, and a returned or
// unacknowledged one comes again before the later messages of its key (like a
// partition of a log). The reorder and delay faults spare messages that have a key.
//
// Faults (each a probability in [0, 1]):
//   drop_ack         an acknowledge() is lost: the message is delivered again
//   duplicate        a publish is delivered twice
//   delay            a message is held back until `delay_span` later next() calls
//   reorder          a message is queued at an earlier place instead of the tail
//   publish_failure  a message is answered kRetryable (the relay backs off and retries)
// Each decision is a hash of (seed, message id, what is decided, how often it was
// decided for that message), never of timing, so a run is reproducible from its seed
// whatever the threads' interleaving.
//
// Thread-safety: every member may be called from many threads at once; the transport
// must outlive its subscriptions.
#ifndef DOCKET_TRANSPORTS_IN_PROCESS_TRANSPORT_H_
#define DOCKET_TRANSPORTS_IN_PROCESS_TRANSPORT_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

// What a broker would refuse: destinations no queue is bound to, and a size limit.
struct InProcessRouting {
  std::set<std::string, std::less<>> unroutable{};
  std::size_t max_message_bytes = 0;  // payload and headers; 0: no limit
};

// Counters since construction.
struct TransportStats {
  std::uint64_t published = 0;         // messages confirmed
  std::uint64_t publish_failures = 0;  // messages answered otherwise
  std::uint64_t deliveries = 0;        // next() results
  std::uint64_t redeliveries = 0;      // deliveries with redelivered set
  std::uint64_t duplicates = 0;        // deliveries with duplicate set
  std::uint64_t acked = 0;
  std::uint64_t dropped_acks = 0;
  std::uint64_t returned = 0;       // return_with_delay() and deliveries of closed subscriptions
  std::uint64_t dead_lettered = 0;  // dead_letter()
  std::uint64_t delayed = 0;
  std::uint64_t reordered = 0;
};

class InProcessTransport final : public Transport {
 public:
  // Throws ConfigurationError for a capacity of 0, a probability outside [0, 1] or a
  // delay_span of 0.
  explicit InProcessTransport(std::size_t capacity, TransportFaults faults = {},
                              InProcessRouting routing = {});
  ~InProcessTransport() override;

  // Wakes every waiter; later publishes are answered kRetryable, subscriptions drain
  // what is queued.
  void close();

  // True when no message (but dead letters no one consumes) is queued, held back or
  // unsettled.
  bool idle() const;

  // Replaces the fault settings (validated as in the constructor).
  void set_faults(TransportFaults faults);

  TransportStats stats() const;

  // Messages whose last publish failed (an injected publish failure) and whose retry
  // has not succeeded yet: the only ones whose attempt count the transport keeps, so
  // that its memory stays bounded however many messages pass through it.
  std::size_t messages_awaiting_retry() const;

  std::string describe() const override { return "in-process transport"; }

 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override;
  std::unique_ptr<spi::SubscriptionChannel> do_subscribe(
      const SubscriptionOptions& options) override;

 private:
  class Channel;
  friend class Channel;

  struct Copy {
    TransportMessage message;
    std::uint64_t order = 0;  // place in the queue; kept when it comes back
    std::uint32_t deliveries = 0;
    bool redelivered = false;
    bool duplicate = false;
    bool dead_letter = false;  // on a dead-letter destination
    std::chrono::steady_clock::time_point due{};
  };
  struct Held {
    Copy copy;
    std::size_t remaining;  // next() calls until released
  };
  struct Unsettled {
    std::uint64_t channel = 0;
    Copy copy;
  };

  PublishResult publish_locked(std::unique_lock<std::mutex>& lock, const TransportMessage& message);
  bool decide(double probability, const std::string& id, std::string_view what,
              std::uint64_t nth) const;
  void enqueue_locked(Copy copy, bool may_reorder);
  void requeue_locked(Copy copy);
  void release_held_locked();
  std::size_t waiting_locked() const;
  // Channel's side.
  std::optional<Delivery> next_for(std::uint64_t channel, const std::string& destination,
                                   std::size_t prefetch, std::chrono::milliseconds wait);
  void settle(std::uint64_t channel, std::uint64_t tag, int how, std::chrono::milliseconds delay,
              std::string_view error);
  void close_channel(std::uint64_t channel);

  const std::size_t capacity_;
  const InProcessRouting routing_;
  TransportFaults faults_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::multimap<std::uint64_t, Copy> queue_;  // by order
  std::deque<Held> held_;
  std::map<std::uint64_t, Unsettled> unsettled_;  // by tag
  std::map<std::string, std::size_t, std::less<>> keys_in_flight_;
  // Failed publish attempts of each message not yet published: the nth attempt's fault
  // decisions depend on n. Erased when a publish is taken.
  std::map<std::string, std::uint64_t, std::less<>> publish_attempts_;
  std::uint64_t next_order_ = 1;
  std::uint64_t next_tag_ = 1;
  std::uint64_t next_channel_ = 1;
  bool closed_ = false;
  TransportStats stats_;
};

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_IN_PROCESS_TRANSPORT_H_
