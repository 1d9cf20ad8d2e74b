// A subscription of the RabbitMQ transport (docket/spi/transport.h): a Consumer on a
// connection of its own, reading a group's queue with the subscription's prefetch as
// the broker's basic.qos, so that the broker never has more than `prefetch` deliveries
// out to it.
//
// Delivery count: a quorum queue's x-delivery-count plus one when the broker sends it;
// otherwise (a classic queue) 2 for a redelivery, or more for a message this channel
// itself returned several times (it counts its own returns by message id).
//
//   acknowledge        basic.ack
//   return_with_delay  held by the channel until the delay passed, then basic.nack with
//                      requeue (the broker has no per-message delay); a later delivery of
//                      the same ordering key that arrives meanwhile is held back and
//                      requeued right after it. Until what was requeued of a key came
//                      back, in the order it was requeued, any other delivery of the key
//                      waits in the channel (the broker may hand out a later message of
//                      the key into a slot a nack freed before the requeued ones), for
//                      at most kAwaitRequeued, after which what waits is handed out
//   dead_letter        the message, with kDeadLetterErrorHeader and
//                      kDeadLetterDeliveriesHeader, published (confirmed, mandatory) to
//                      the dead-letter destination on the transport's exchange, then
//                      basic.ack; when that publish is not confirmed, TransportError and
//                      the delivery stays held (delivered again after close)
//   close              closes the connection: the broker requeues what was held
//
// A delivery that is not a CloudEvents binary-mode message is dead-lettered by next()
// with the decoding error. A lost connection is reopened by next() with capped backoff
// (what was held is the broker's to redeliver; its tags are forgotten); a login refused
// while reconnecting is taken for a broker going down a few times in a row before it
// is reported.
//
// Thread-safety: one thread at a time (docket/spi/transport.h).
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_SUBSCRIPTION_CHANNEL_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_SUBSCRIPTION_CHANNEL_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/spi/transport.h"
#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/rabbitmq_consumer.h"
#include "transports/rabbitmq/rabbitmq_publishing_connection.h"

namespace docket::rabbitmq::detail {

struct SubscriptionRoute {
  std::string destination;
  std::string queue;
  std::string dead_letter_destination;
  std::uint16_t prefetch = 16;
};

class SubscriptionChannel final : public spi::SubscriptionChannel {
 public:
  // Connects and starts consuming. Throws TransportError naming the broker, the
  // destination and what to do when that fails.
  SubscriptionChannel(std::shared_ptr<PublishingConnection> publishing, SubscriptionRoute route);
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
    Delivery raw;
    std::optional<std::string> ordering_key;
    std::uint32_t delivery_count = 1;
    std::optional<Clock::time_point> return_due;  // set: returned, awaiting its delay
    // Never handed out yet: waits behind a return of its key, or for its key's
    // requeued deliveries to come back.
    bool held_back = false;
  };
  // A key's requeued deliveries, by message id in the order they were requeued, awaited
  // back until `until`.
  struct AwaitedReturns {
    std::deque<std::string> ids;
    Clock::time_point until;
  };

  void connect();
  void lose_connection();
  void requeue_due_returns();
  std::optional<Clock::time_point> earliest_return() const;
  // Whether a new delivery of `key` with `message_id` must wait in the channel: behind
  // a pending return of its key, behind what of its key waits already, or for its key's
  // requeued deliveries (it is handed out now when it is the next of those, and taken
  // off them).
  bool must_wait(const std::optional<std::string>& key, const std::string& message_id);
  // Moves the key's waiting deliveries that may go now to ready_: the awaited front as
  // long as it is waiting; all of them once nothing (or nothing in time) is awaited.
  void release_waiting(const std::string& key);
  // Releases every key whose awaited deliveries did not come back in time.
  void release_overdue();
  std::optional<docket::Delivery> hand_out(std::uint64_t tag);
  void publish_dead_letter(const Delivery& raw, std::uint32_t deliveries, std::string_view error);
  [[noreturn]] void fail(std::string_view doing, const std::exception& error) const;

  std::shared_ptr<PublishingConnection> publishing_;
  SubscriptionRoute route_;
  std::unique_ptr<Connection> connection_;
  std::unique_ptr<Consumer> consumer_;
  std::map<std::uint64_t, Held> held_;             // by the channel's tag, which never repeats
  std::map<std::string, AwaitedReturns> awaited_;  // by ordering key
  std::deque<std::uint64_t> ready_;                // held deliveries released, to hand out first
  // Message id -> deliveries of it this channel returned, until it is settled here
  // (bounded: forgotten wholesale past kMaxRemembered, undercounting, never over).
  std::map<std::string, std::uint32_t> returned_;
  std::uint64_t next_tag_ = 0;
  bool closed_ = false;
  Clock::time_point next_connect_{};
  std::chrono::milliseconds backoff_{0};
  int refused_logins_ = 0;  // in a row, while reconnecting (kRefusedLoginsTolerated)
};

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_SUBSCRIPTION_CHANNEL_H_
