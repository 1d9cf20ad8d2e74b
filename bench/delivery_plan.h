// The order in which a benchmark delivers its messages: every message once, and a
// share of them a second time, as an at-least-once transport redelivers.
//
// Duplicated messages are spread evenly over the run (message i is duplicated when
// floor((i + 1) * share) > floor(i * share)), and each redelivery comes
// kRedeliveryDistance messages after the original, as a transport redelivers a message
// whose acknowledgement was lost shortly before: close enough that a batch often holds
// both, far enough that they are not adjacent.
//
// Thread-safety: immutable after construction.
#ifndef DOCKET_BENCH_DELIVERY_PLAN_H_
#define DOCKET_BENCH_DELIVERY_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace docket::bench {

class DeliveryPlan {
 public:
  static constexpr std::size_t kRedeliveryDistance = 10;

  // Throws InvalidInputError when `duplicate_share` is not within [0, 1] or
  // `messages` does not fit 32 bits.
  DeliveryPlan(std::size_t messages, double duplicate_share);

  std::size_t messages() const noexcept { return messages_; }
  std::size_t duplicated() const noexcept { return deliveries_.size() - messages_; }
  std::size_t deliveries() const noexcept { return deliveries_.size(); }
  // The message index of the d-th delivery.
  std::uint32_t message_of(std::size_t delivery) const noexcept { return deliveries_[delivery]; }

 private:
  std::size_t messages_;
  std::vector<std::uint32_t> deliveries_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_DELIVERY_PLAN_H_
