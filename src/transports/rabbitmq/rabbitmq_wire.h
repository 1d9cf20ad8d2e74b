// How a docket TransportMessage travels on RabbitMQ: the envelope as CloudEvents 1.0
// binary-mode headers with the AMQP prefix "cloudEvents:" (docket/transports/
// cloudevents.h), the content type as the AMQP content-type property, the message id
// also as the AMQP message-id property (verbatim), the destination as the routing key,
// the payload as the body.
//
// Thread-safety: pure functions over values.
#ifndef DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_WIRE_H_
#define DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_WIRE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "docket/transports/transport_message.h"
#include "transports/rabbitmq/rabbitmq_message.h"

namespace docket::rabbitmq::detail {

// The broker's own header, kept out of the application's headers on delivery.
inline constexpr std::string_view kDeliveryCountHeader = "x-delivery-count";

// `message` as published to `exchange` with routing key `message.destination`. Throws
// InvalidInputError (from to_cloudevents_headers) for an application header whose
// name passes for a CloudEvents attribute.
OutgoingMessage to_outgoing(const TransportMessage& message, const std::string& exchange);

// The message `delivery` carries. Throws InvalidInputError naming what is wrong when it
// is not a CloudEvents binary-mode message (a producer that is not docket).
TransportMessage from_delivery(const Delivery& delivery);

// How many times `delivery` was delivered, this time included: a quorum queue's
// x-delivery-count (its earlier deliveries) plus one, and at least 2 when the broker
// says it was redelivered (a classic queue counts no further than that).
std::uint32_t delivery_count(const Delivery& delivery);

}  // namespace docket::rabbitmq::detail

#endif  // DOCKET_TRANSPORTS_RABBITMQ_RABBITMQ_WIRE_H_
