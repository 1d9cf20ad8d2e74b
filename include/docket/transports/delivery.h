// One delivery of a message to a subscription (docket/transports/subscription.h), and
// the headers a dead-lettered message carries.
//
// A transport delivers at least once: a message may come again (its consumer died
// before acknowledging it, it was returned, or the transport made a copy); the inbox
// makes it effectively once by its message id.
//
// Thread-safety: plain value types.
#ifndef DOCKET_TRANSPORTS_DELIVERY_H_
#define DOCKET_TRANSPORTS_DELIVERY_H_

#include <cstdint>
#include <string_view>

#include "docket/transports/transport_message.h"

namespace docket {

struct Delivery {
  TransportMessage message{};
  std::uint64_t tag = 0;  // names it to its subscription's acknowledge/return/dead_letter
  // How many times this message was delivered, this delivery included (a broker's
  // x-delivery-count, SQS's ApproximateReceiveCount): 1 the first time.
  std::uint32_t delivery_count = 1;
  bool redelivered = false;  // delivered before, and not acknowledged then
  bool duplicate = false;    // a second copy the transport made of one publish
};

// Headers a transport adds to a dead-lettered message (Subscription::dead_letter):
// the last error, as given, and the delivery count when it was dead-lettered.
inline constexpr std::string_view kDeadLetterErrorHeader = "docket-dead-letter-error";
inline constexpr std::string_view kDeadLetterDeliveriesHeader = "docket-dead-letter-deliveries";

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_DELIVERY_H_
