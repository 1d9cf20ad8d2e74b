#include "transports/pubsub/pubsub_wire.h"

#include <vector>

#include "docket/core/error.h"
#include "docket/transports/cloudevents.h"
#include "providers/kit/base64.h"

namespace docket::pubsub::detail {
namespace {

void check_attribute(const TransportMessage& message, const MessageHeader& header) {
  if (header.name.size() > kMaxAttributeNameBytes ||
      header.value.size() > kMaxAttributeValueBytes) {
    throw InvalidInputError("message '" + message.envelope.message_id + "': header '" +
                            header.name.substr(0, 64) + "' is over Pub/Sub's attribute limits (" +
                            std::to_string(kMaxAttributeNameBytes) + " bytes of name, " +
                            std::to_string(kMaxAttributeValueBytes) +
                            " of value); carry it in the payload instead");
  }
}

}  // namespace

EncodedMessage to_pubsub_message(const TransportMessage& message, std::size_t max_message_bytes) {
  EncodedMessage encoded;
  nlohmann::json attributes = nlohmann::json::object();
  std::size_t bytes = message.envelope.payload.size();
  const std::vector<MessageHeader> headers =
      to_cloudevents_headers(message, kCloudEventsPubSubPrefix);
  if (headers.size() > kMaxAttributes) {
    throw InvalidInputError("message '" + message.envelope.message_id + "' carries " +
                            std::to_string(headers.size()) +
                            " attributes with docket's own; Pub/Sub takes at most " +
                            std::to_string(kMaxAttributes) + ": send fewer headers");
  }
  for (const MessageHeader& header : headers) {
    check_attribute(message, header);
    if (attributes.contains(header.name)) {
      throw InvalidInputError("message '" + message.envelope.message_id +
                              "' has two headers named '" + header.name +
                              "'; Pub/Sub attributes are a map: give each name once");
    }
    attributes[header.name] = header.value;
    bytes += header.name.size() + header.value.size();
  }
  encoded.json = {{"data", kit::base64_encode(message.envelope.payload)},
                  {"attributes", std::move(attributes)}};
  if (message.ordering_key) {
    if (message.ordering_key->size() > kMaxOrderingKeyBytes) {
      throw InvalidInputError("message '" + message.envelope.message_id +
                              "': its ordering key is " +
                              std::to_string(message.ordering_key->size()) +
                              " bytes, over Pub/Sub's " + std::to_string(kMaxOrderingKeyBytes) +
                              "; use a shorter key (a hash of it keeps the order)");
    }
    encoded.json["orderingKey"] = *message.ordering_key;
    bytes += message.ordering_key->size();
  }
  if (bytes > max_message_bytes) {
    throw InvalidInputError(
        "message '" + message.envelope.message_id + "' is " + std::to_string(bytes) +
        " bytes with its attributes, over the limit of " + std::to_string(max_message_bytes) +
        " bytes (the URL's max_message_size, Pub/Sub's 10 MB at most); "
        "nothing was sent: make it smaller or send a reference to the data");
  }
  encoded.bytes = bytes;
  // Pub/Sub counts a request in its protocol-buffer form, where data travels as bytes:
  // the message and a few bytes of field tags and lengths per field.
  encoded.request_bytes = bytes + 8 * (headers.size() + 2);
  return encoded;
}

TransportMessage from_pubsub_message(const nlohmann::json& message, std::string destination) {
  std::vector<MessageHeader> headers;
  if (const auto attributes = message.find("attributes");
      attributes != message.end() && attributes->is_object()) {
    for (const auto& [name, value] : attributes->items())
      headers.push_back({name, value.is_string() ? value.get<std::string>() : value.dump()});
  }
  std::optional<std::string> payload = kit::base64_decode(message.value("data", ""));
  if (!payload) {
    throw InvalidInputError("Pub/Sub message '" + message.value("messageId", "") +
                            "': its data is not base64, as Pub/Sub's REST API sends it");
  }
  TransportMessage decoded = from_cloudevents_headers(
      headers, std::move(*payload), std::move(destination), kCloudEventsPubSubPrefix);
  // The binding carries the ordering key as the partitionkey attribute; Pub/Sub's own
  // field is the one that ordered the delivery, so it wins.
  if (const auto key = message.find("orderingKey");
      key != message.end() && key->is_string() && !key->get<std::string>().empty()) {
    decoded.ordering_key = key->get<std::string>();
  }
  return decoded;
}

}  // namespace docket::pubsub::detail
