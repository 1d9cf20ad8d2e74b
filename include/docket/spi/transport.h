// What only a transport implements. Its publishing side is docket::Transport's
// protected hooks (docket/transports/transport.h: do_publish_batch, do_subscribe);
// its consuming side is the channel below, behind docket::Subscription
// (docket/transports/subscription.h), through which the consumer runner consumes. An
// application never needs this header.
//
// Publishing (do_publish_batch), a transport:
//  - answers every message of the batch with a PublishResult, in the batch's order,
//    and confirms only what the broker took responsibility for;
//  - never confirms a message after an earlier message of the batch with the same
//    ordering key that it did not confirm (it answers kRetryable for it, unsent), so
//    that a key's messages reach the broker in their outbox order;
//  - refuses for good (kRefused) only what no retry can fix, naming why;
//  - carries the message id verbatim (CloudEvents `id`: docket/transports/cloudevents.h).
//
// Consuming (SubscriptionChannel), a transport keeps these invariants (the suite in
// tests/conformance/transport/ checks them):
//  - next() never hands out more than the subscription's prefetch unsettled deliveries;
//  - one ordering key's messages are delivered to a group in their publish order, a
//    returned delivery before every later message of its key;
//  - a delivery not acknowledged is delivered again: after return_with_delay()'s delay,
//    or after close() (which every destructor of a live channel calls), with
//    `redelivered` set and delivery_count one higher;
//  - dead_letter() publishes the message to the transport's dead_letter_destination()
//    of its destination with kDeadLetterErrorHeader and kDeadLetterDeliveriesHeader
//    added, and never delivers it to the group again;
//  - reconnecting after a lost connection is the channel's own business (capped
//    backoff); an error it cannot retry is a TransportError naming the broker, the
//    destination and what to do.
//
// Thread-safety: one thread at a time per channel.
#ifndef DOCKET_SPI_TRANSPORT_H_
#define DOCKET_SPI_TRANSPORT_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "docket/transports/delivery.h"

namespace docket::spi {

class SubscriptionChannel {
 public:
  virtual ~SubscriptionChannel() = default;
  SubscriptionChannel(const SubscriptionChannel&) = delete;
  SubscriptionChannel& operator=(const SubscriptionChannel&) = delete;

  virtual std::optional<Delivery> next(std::chrono::milliseconds wait) = 0;
  virtual void acknowledge(std::uint64_t tag) = 0;
  virtual void return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                                 std::string_view error) = 0;
  virtual void dead_letter(std::uint64_t tag, std::string_view error) = 0;
  virtual void close() = 0;  // idempotent

 protected:
  SubscriptionChannel() = default;
};

}  // namespace docket::spi

#endif  // DOCKET_SPI_TRANSPORT_H_
