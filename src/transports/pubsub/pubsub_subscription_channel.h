// A subscription of the Pub/Sub transport (docket/spi/transport.h): pulls a group's
// Pub/Sub subscription, at most `prefetch` messages held at once (maxMessages of each
// pull is what the prefetch leaves).
//
// Pulling: next() pulls with returnImmediately and, finding nothing, pulls again after a
// short pause (25 ms doubling to 200 ms) until its wait is over, so that next(wait) never
// blocks past `wait` on the server's long poll. The messages of one pull are taken in
// their publish order (publishTime, then messageId): Pub/Sub orders a key's messages
// (enableMessageOrdering), but the emulator hands a key's redelivered messages out of
// order, so the channel sorts what it pulls.
//
//   acknowledge        :acknowledge
//   return_with_delay  kept by the channel (its deadline extended) until the delay
//                      passed, then handed out again by next(), delivery count one
//                      higher; later messages of its ordering key that the channel holds
//                      wait behind it, so that the returned one comes first. Pub/Sub has
//                      no per-message delay, and its redelivery would not keep a key's
//                      order on the emulator.
//   dead_letter        the message, with kDeadLetterErrorHeader (the error cut to
//                      Pub/Sub's 1024 bytes of attribute value) and
//                      kDeadLetterDeliveriesHeader, published to the topic of the
//                      dead-letter destination and confirmed, then acknowledged; when that
//                      publish is not confirmed, TransportError and the delivery stays
//                      held (delivered again after close)
//   close              :modifyAckDeadline 0 for every held message (a nack), so Pub/Sub
//                      delivers them again at once
//
// Delivery count: Pub/Sub's deliveryAttempt, which it sends when the subscription has a
// dead-letter policy (docket's subscriptions do; the emulator honours it), or else the
// transport's own count of the deliveries it handed out and saw come back (shared by
// the transport's subscriptions, so a consumer that closes and subscribes again counts
// on; forgotten past 10000 messages: undercounting, never over). The higher of the two.
//
// Deadlines: a thread of the channel extends the ack deadline of every held message
// each third of the deadline, so that a handler that runs long keeps its message.
//
// A message that is not docket's wire format is dead-lettered by next() with the
// decoding error. A server that cannot be reached makes next() return nothing for that
// call and try again at the next (held messages come back once their deadline passes).
//
// Thread-safety: one thread at a time (docket/spi/transport.h); the deadline thread
// shares the held messages under a mutex.
#ifndef DOCKET_TRANSPORTS_PUBSUB_PUBSUB_SUBSCRIPTION_CHANNEL_H_
#define DOCKET_TRANSPORTS_PUBSUB_PUBSUB_SUBSCRIPTION_CHANNEL_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "docket/spi/transport.h"
#include "transports/pubsub/pubsub_publisher.h"

namespace docket::pubsub::detail {

// Deliveries handed out per message, by subscription and Pub/Sub message id, shared by
// a transport's subscriptions. Thread-safe.
class DeliveryCounts {
 public:
  std::uint32_t seen(const std::string& key) const;
  void record(const std::string& key, std::uint32_t count);
  void forget(const std::string& key);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::uint32_t> counts_;
};

struct SubscriptionRoute {
  std::string destination;
  std::string subscription;  // its id
  std::string dead_letter_destination;
  std::size_t prefetch = 16;
};

class SubscriptionChannel final : public spi::SubscriptionChannel {
 public:
  SubscriptionChannel(std::shared_ptr<Publisher> publisher, std::shared_ptr<DeliveryCounts> counts,
                      SubscriptionRoute route);
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
    std::string ack_id{};
    std::string pubsub_id{};  // Pub/Sub's messageId
    nlohmann::json raw{};     // the PubsubMessage as received: what a dead letter copies
    TransportMessage message{};
    std::uint32_t delivery_count = 1;
    bool handed_out = false;
    std::optional<Clock::time_point> return_due{};  // set: returned, awaiting its delay
  };

  std::optional<docket::Delivery> hand_out_ready();
  std::size_t pull(std::size_t max_messages);
  void publish_dead_letter(const nlohmann::json& raw, std::uint32_t deliveries,
                           std::string_view error);
  void acknowledge_ids(nlohmann::json ack_ids);
  void extend_deadlines(std::stop_token stop);
  std::string count_key(const std::string& pubsub_id) const;
  Answer post(std::string_view method, const nlohmann::json& request);

  std::shared_ptr<Publisher> publisher_;
  std::shared_ptr<DeliveryCounts> counts_;
  SubscriptionRoute route_;
  std::string path_;
  std::mutex mutex_;                    // guards held_ (the deadline thread reads it)
  std::map<std::uint64_t, Held> held_;  // by tag: the order taken, a key's publish order
  std::uint64_t next_tag_ = 0;
  bool closed_ = false;
  std::condition_variable_any wake_;
  std::jthread deadlines_;
};

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_PUBSUB_SUBSCRIPTION_CHANNEL_H_
