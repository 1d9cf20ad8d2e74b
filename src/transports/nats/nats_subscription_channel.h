// A subscription of the NATS JetStream transport (docket/spi/transport.h): a pull
// subscription, on a connection of its own, bound to the durable consumer of a
// destination and group; next() fetches at most the room left under the subscription's
// prefetch, so that no more than `prefetch` deliveries are held at once.
//
// Delivery count: the message's NumDelivered (JetStream's metadata), so it counts every
// delivery to the group, whichever subscription had the earlier ones; but never less
// than one more than the count this channel returned the same stream sequence with.
// The server (2.9, Debian 12's) now and then redelivers a Nak'd message with
// NumDelivered 1 again (about 1 in 400 runs of three returns here), which would give a
// failing handler more deliveries than max_deliveries allows.
//
//   acknowledge        Ack
//   return_with_delay  held by the channel until the delay passed, then Nak (JetStream
//                      puts a Nak'd message first in line for redelivery, in Nak
//                      order); a later delivery of the same ordering key that arrives
//                      meanwhile, or was fetched and not yet handed out, is held back
//                      and Nak'd right after it, so that the returned one comes first
//                      (the last Nak of such a run is a request the server answers, so
//                      that the channel's next pull cannot overtake them).
//                      (NakWithDelay would let the server hand out the key's later
//                      messages during the delay.) On the consumer's MaxDeliver-th
//                      delivery, which JetStream would never deliver again, it
//                      dead-letters instead, with the error given.
//   dead_letter        a copy with kDeadLetterErrorHeader and kDeadLetterDeliveriesHeader
//                      published (acknowledged by the stream) to the dead-letter
//                      destination, then Term; when that publish is not acknowledged,
//                      TransportError and the delivery stays held
//   close              every held delivery Nak'd, in stream order, and the connection
//                      flushed and closed: redelivered at once
//
// In progress: while the channel holds a delivery (handed out and unsettled, or fetched
// and not yet handed out, or awaiting a return's delay), a thread of the channel sends
// JetStream's in-progress acknowledgement for it every third of the consumer's AckWait,
// so that a handler that runs longer than AckWait keeps its message; a consumer whose
// process dies stops sending them, and the server redelivers after AckWait.
//
// A delivery that is not a CloudEvents binary-mode message is dead-lettered by next()
// with the decoding error. A lost connection is reopened by next() with capped backoff;
// what it held is Nak'd on the new connection (by its acknowledgement subject, which
// outlives the connection) so that the server redelivers it at once, and its tags are
// forgotten (settling one is ignored).
//
// Thread-safety: one thread at a time calls the SPI (docket/spi/transport.h); the
// in-progress thread shares only what the mutex guards.
#ifndef DOCKET_TRANSPORTS_NATS_NATS_SUBSCRIPTION_CHANNEL_H_
#define DOCKET_TRANSPORTS_NATS_NATS_SUBSCRIPTION_CHANNEL_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "docket/spi/transport.h"
#include "transports/nats/nats_connection.h"

namespace docket::nats::detail {

struct SubscriptionRoute {
  std::string destination;
  std::string consumer;  // the durable consumer's name
  std::string dead_letter_destination;
  std::size_t prefetch = 16;
};

class SubscriptionChannel final : public spi::SubscriptionChannel {
 public:
  // Connects, declares or checks the stream and the consumer (nats_topology.h) and
  // subscribes. Throws TransportError naming the server, the destination and what to do
  // when that fails.
  SubscriptionChannel(ServerUrl url, SubscriptionRoute route);
  ~SubscriptionChannel() override;

  std::optional<docket::Delivery> next(std::chrono::milliseconds wait) override;
  void acknowledge(std::uint64_t tag) override;
  void return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                         std::string_view error) override;
  void dead_letter(std::uint64_t tag, std::string_view error) override;
  void close() override;

 private:
  using Clock = std::chrono::steady_clock;
  struct Held {
    MsgPtr raw;
    TransportMessage message;
    std::uint64_t stream_sequence = 0;
    std::uint32_t delivery_count = 1;
    bool handed_out = false;
    bool held_back = false;                       // waits behind a return of its key
    std::optional<Clock::time_point> return_due;  // returned, awaiting its delay
    Clock::time_point touched;                    // delivered or last kept in progress
  };

  void connect();
  void lose_connection();
  void fetch(std::size_t room, Clock::time_point until);
  void take(MsgPtr raw);
  std::optional<docket::Delivery> hand_out();
  bool behind_a_return(const std::optional<std::string>& key, std::uint64_t tag) const;
  void requeue_due_returns();
  std::optional<Clock::time_point> earliest_return() const;
  void nak_in_order(const std::vector<natsMsg*>& messages) const;
  void remember_return(const Held& held);
  void forget_return(const Held& held);
  void publish_dead_letter(natsMsg* raw, std::uint64_t stream_sequence, std::uint32_t deliveries,
                           std::string_view error);
  void keep_in_progress();
  [[noreturn]] void fail(std::string_view doing, const std::exception& error) const;

  ServerUrl url_;
  SubscriptionRoute route_;
  std::unique_ptr<Connection> connection_;
  SubscriptionPtr subscription_;        // of connection_: reset before it
  std::map<std::uint64_t, Held> held_;  // by the channel's tag, which never repeats
  std::deque<std::uint64_t> ready_;     // fetched, not yet handed out, in stream order
  // The delivery count each stream sequence was last Nak'd with, until it is settled;
  // the oldest sequences are forgotten beyond kRememberedReturns.
  std::map<std::uint64_t, std::uint32_t> returned_counts_;
  // Acknowledgement subjects of what a lost connection held, Nak'd once reconnected.
  std::vector<std::string> to_nak_;
  std::uint64_t next_tag_ = 0;
  bool closed_ = false;
  Clock::time_point next_connect_{};
  std::chrono::milliseconds backoff_{0};
  int refused_logins_ = 0;  // in a row, while reconnecting

  // Guards held_ (and connection_'s replacement) against the in-progress thread.
  mutable std::mutex mutex_;
  std::condition_variable stopping_;
  bool stop_in_progress_ = false;
  std::thread in_progress_;  // last: started once the rest is built
};

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_SUBSCRIPTION_CHANNEL_H_
