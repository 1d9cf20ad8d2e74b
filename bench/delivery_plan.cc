#include "delivery_plan.h"

#include <cmath>
#include <limits>
#include <string>

#include "docket/core/error.h"

namespace docket::bench {
namespace {

bool is_duplicated(std::size_t message, double share) {
  return std::floor(static_cast<double>(message + 1) * share) >
         std::floor(static_cast<double>(message) * share);
}

}  // namespace

DeliveryPlan::DeliveryPlan(std::size_t messages, double duplicate_share) : messages_(messages) {
  if (!(duplicate_share >= 0.0 && duplicate_share <= 1.0)) {
    throw InvalidInputError("duplicate share " + std::to_string(duplicate_share) +
                            " is not within [0, 1]; pass the share of messages delivered twice");
  }
  if (messages > std::numeric_limits<std::uint32_t>::max()) {
    throw InvalidInputError("message count " + std::to_string(messages) +
                            " is too large; at most 4294967295 messages per run");
  }
  deliveries_.reserve(
      messages + static_cast<std::size_t>(static_cast<double>(messages) * duplicate_share) + 1);
  for (std::size_t m = 0; m < messages + kRedeliveryDistance; ++m) {
    if (m < messages) {
      deliveries_.push_back(static_cast<std::uint32_t>(m));
    }
    if (m >= kRedeliveryDistance && is_duplicated(m - kRedeliveryDistance, duplicate_share)) {
      deliveries_.push_back(static_cast<std::uint32_t>(m - kRedeliveryDistance));
    }
  }
}

}  // namespace docket::bench
