// A subscription: the consuming side of a transport, for one destination and one
// consumer group (a queue: the subscriptions of one group compete for its messages).
//
//   auto subscription = transport.subscribe({.destination = "orders", .group = "billing"});
//   while (auto delivery = subscription.next(std::chrono::milliseconds(100))) {
//     ... commit ...;
//     subscription.acknowledge(delivery->tag);
//   }
//
// Each delivery stays the subscription's until it is acknowledged (done: never
// delivered again), returned (delivered again, to any subscription of the group, after
// the delay) or dead-lettered (moved to the transport's dead-letter destination with
// the error). At most `prefetch` deliveries are held at once: next() hands out no
// more until one is settled. Closing the subscription (or destroying it, or the
// consumer's process dying) returns every delivery it holds, to be delivered again
// with `redelivered` set: what a broker does when a consumer's connection drops.
//
// Thread-safety: one thread at a time per subscription; a transport serves many
// subscriptions on many threads at once.
#ifndef DOCKET_TRANSPORTS_SUBSCRIPTION_H_
#define DOCKET_TRANSPORTS_SUBSCRIPTION_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/transports/delivery.h"

namespace docket {

namespace spi {
class SubscriptionChannel;  // docket/spi/transport.h
}  // namespace spi

struct SubscriptionOptions {
  // Where its messages were published. Empty: every destination the transport carries
  // (the in-process transport can; a broker transport may refuse it with a
  // ConfigurationError naming the setting).
  std::string destination{};
  std::string group{};        // the consumer group (queue); empty: the transport's default
  std::size_t prefetch = 16;  // deliveries held unsettled at most; at least 1
};

class Subscription {
 public:
  // Takes the transport's channel; Transport::subscribe() makes one.
  explicit Subscription(std::unique_ptr<spi::SubscriptionChannel> channel);
  Subscription(Subscription&&) noexcept;
  Subscription& operator=(Subscription&&) noexcept;
  ~Subscription();  // close()

  // The next delivery, waiting up to `wait`; nullopt when none came in time, when
  // `prefetch` deliveries are held, or when the subscription or its transport closed.
  std::optional<Delivery> next(std::chrono::milliseconds wait);

  // Settles a held delivery. A tag the subscription does not hold (settled already,
  // or from another subscription) is ignored: its message is settled elsewhere.
  void acknowledge(std::uint64_t tag);
  void return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                         std::string_view error);
  void dead_letter(std::uint64_t tag, std::string_view error);

  // Returns every held delivery for redelivery and ends the subscription; idempotent.
  void close();

 private:
  std::unique_ptr<spi::SubscriptionChannel> channel_;
};

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_SUBSCRIPTION_H_
