// docket's wire format on Pub/Sub: a TransportMessage as a Pub/Sub PubsubMessage (JSON,
// REST v1) in the CloudEvents binary mode of Google's Pub/Sub protocol binding
// (docket/transports/cloudevents.h, kCloudEventsPubSubPrefix): every CloudEvents
// attribute and application header a message attribute, the content type the attribute
// "content-type", the payload the base64 `data`, docket's ordering key Pub/Sub's
// `orderingKey`. The destination is the topic, so it is not carried.
//
// Pub/Sub's limits, checked before anything is sent (InvalidInputError naming the
// message and the limit): data plus attributes plus ordering key at most the URL's
// max_message_size (10 MB at most), 100 attributes, attribute names of 256 bytes and
// values of 1024, an ordering key of 1024 bytes, no two headers of one name (attributes
// are a map).
//
// Thread-safety: pure functions.
#ifndef DOCKET_TRANSPORTS_PUBSUB_PUBSUB_WIRE_H_
#define DOCKET_TRANSPORTS_PUBSUB_PUBSUB_WIRE_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "docket/transports/transport_message.h"

namespace docket::pubsub::detail {

inline constexpr std::size_t kMaxAttributes = 100;
inline constexpr std::size_t kMaxAttributeNameBytes = 256;
inline constexpr std::size_t kMaxAttributeValueBytes = 1024;
inline constexpr std::size_t kMaxOrderingKeyBytes = 1024;

struct EncodedMessage {
  nlohmann::json json;            // {"data": ..., "attributes": {...}, "orderingKey": ...}
  std::size_t bytes = 0;          // what Pub/Sub counts against its size limit
  std::size_t request_bytes = 0;  // what it adds to a :publish request, as Pub/Sub counts it
};

// Throws InvalidInputError as the header comment says, and as to_cloudevents_headers does.
EncodedMessage to_pubsub_message(const TransportMessage& message, std::size_t max_message_bytes);

// The message a received PubsubMessage carries, published to `destination`. Throws
// InvalidInputError when its data is not base64 or its attributes are not docket's
// wire format (from_cloudevents_headers).
TransportMessage from_pubsub_message(const nlohmann::json& message, std::string destination);

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_PUBSUB_WIRE_H_
