// docket's wire format for transports that carry headers: the envelope in CloudEvents
// 1.0 binary content mode, so that a service that is not docket can produce for or
// consume from docket (docs/transports.md). The payload is the message body, unchanged;
// the destination travels as the protocol's routing (topic, exchange and routing key).
//
// Attributes, each a header named <prefix><attribute> (the binding's prefix: "ce_" for
// Kafka, "cloudEvents:" for AMQP, "ce-" for HTTP, for NATS and for Google Pub/Sub's
// message attributes):
//   specversion    "1.0"
//   id             the message id: the outbox id, verbatim
//   type           the event type
//   source         the envelope's source; "urn:docket:unspecified" when it has none
//   time           occurred_at, RFC 3339 UTC with microseconds
//   tenant         the tenant ("__untenanted__" outside a tenant scope)
//   causationid, correlationid   the lineage, when present
//   traceparent, tracestate      W3C trace context (the Distributed Tracing extension)
//   partitionkey   the ordering key, when present (the Partitioning extension)
// The content type is the header "content-type" (which each binding maps to its
// protocol's content type): the message's own "content-type" header, or
// "application/json", docket's codecs' encoding. Every other application header
// travels as itself.
//
// Thread-safety: pure functions.
#ifndef DOCKET_TRANSPORTS_CLOUDEVENTS_H_
#define DOCKET_TRANSPORTS_CLOUDEVENTS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/message_header.h"
#include "docket/transports/transport_message.h"

namespace docket {

inline constexpr std::string_view kCloudEventsKafkaPrefix = "ce_";
inline constexpr std::string_view kCloudEventsAmqpPrefix = "cloudEvents:";
inline constexpr std::string_view kCloudEventsHttpPrefix = "ce-";
// The NATS protocol binding's binary mode: NATS message headers named as HTTP's.
inline constexpr std::string_view kCloudEventsNatsPrefix = "ce-";
// The Google Cloud Pub/Sub protocol binding's binary mode: message attributes named
// "ce-<attribute>", the content type as the attribute "content-type".
inline constexpr std::string_view kCloudEventsPubSubPrefix = "ce-";
inline constexpr std::string_view kCloudEventsNoSource = "urn:docket:unspecified";
inline constexpr std::string_view kDefaultContentType = "application/json";

// The headers that carry `message` (not its payload or destination). Throws
// InvalidInputError naming the header when an application header's name starts with
// `prefix` (it would pass for an attribute) or is empty.
std::vector<MessageHeader> to_cloudevents_headers(const TransportMessage& message,
                                                  std::string_view prefix);

// The message that `headers`, `payload` and `destination` carry. Throws
// InvalidInputError naming the header, what was wrong and what to do when a required
// attribute (specversion, id, type, source, time) is missing, specversion is not
// "1.0", an attribute repeats, the id is not an acceptable message id or time is not
// RFC 3339. Unknown <prefix> headers (another producer's extensions) are kept as
// application headers; a "content-type" of "application/json" is dropped (it is the
// default), any other kept.
TransportMessage from_cloudevents_headers(std::span<const MessageHeader> headers,
                                          std::string payload, std::string destination,
                                          std::string_view prefix);

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_CLOUDEVENTS_H_
