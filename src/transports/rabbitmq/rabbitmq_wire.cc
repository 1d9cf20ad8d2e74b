#include "transports/rabbitmq/rabbitmq_wire.h"

#include <algorithm>
#include <vector>

#include "docket/transports/cloudevents.h"

namespace docket::rabbitmq::detail {
namespace {

constexpr std::string_view kContentTypeHeader = "content-type";

}  // namespace

OutgoingMessage to_outgoing(const TransportMessage& message, const std::string& exchange) {
  OutgoingMessage out;
  out.exchange = exchange;
  out.routing_key = message.destination;
  out.message_id = message.envelope.message_id;
  out.body = message.envelope.payload;
  for (MessageHeader& header : to_cloudevents_headers(message, kCloudEventsAmqpPrefix)) {
    if (header.name == kContentTypeHeader) {
      out.content_type = std::move(header.value);  // AMQP's own property carries it
    } else {
      out.headers.emplace_back(std::move(header.name), std::move(header.value));
    }
  }
  return out;
}

TransportMessage from_delivery(const Delivery& delivery) {
  std::vector<MessageHeader> headers;
  headers.reserve(delivery.headers.size() + 1);
  for (const auto& [name, value] : delivery.headers) {
    if (name != kDeliveryCountHeader)
      headers.push_back({name, value});
  }
  if (!delivery.content_type.empty())
    headers.push_back({std::string(kContentTypeHeader), delivery.content_type});
  return from_cloudevents_headers(headers, delivery.body, delivery.routing_key,
                                  kCloudEventsAmqpPrefix);
}

std::uint32_t delivery_count(const Delivery& delivery) {
  const std::int64_t earlier = std::max<std::int64_t>(delivery.delivery_count.value_or(0), 0);
  const std::int64_t counted = std::max<std::int64_t>(earlier + 1, delivery.redelivered ? 2 : 1);
  return static_cast<std::uint32_t>(std::min<std::int64_t>(counted, UINT32_MAX));
}

}  // namespace docket::rabbitmq::detail
