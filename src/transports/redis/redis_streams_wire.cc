// A docket message as one Redis stream entry (redis_streams_wire.h).
#include "transports/redis/redis_streams_wire.h"

#include <utility>

#include "docket/core/error.h"
#include "docket/transports/cloudevents.h"

namespace docket::redis::streams {

Fields encode_entry(const TransportMessage& message) {
  const std::vector<MessageHeader> headers =
      to_cloudevents_headers(message, kCloudEventsRedisPrefix);
  Fields fields;
  fields.reserve(headers.size() + 1);
  fields.emplace_back(kDataField, message.envelope.payload);
  for (const MessageHeader& header : headers)
    fields.emplace_back(header.name, header.value);
  return fields;
}

std::size_t entry_bytes(const Fields& fields) {
  std::size_t bytes = 0;
  for (const auto& [name, value] : fields)
    bytes += name.size() + value.size();
  return bytes;
}

TransportMessage decode_entry(Fields fields, std::string destination) {
  if (fields.empty() || fields.front().first != kDataField) {
    throw InvalidInputError(
        "the entry's first field is not '" + std::string(kDataField) +
        "' (the payload): it was not written by docket's Redis Streams transport; write the "
        "payload as the field 'data', then the CloudEvents attributes as ce_* fields");
  }
  std::string payload = std::move(fields.front().second);
  std::vector<MessageHeader> headers;
  headers.reserve(fields.size() - 1);
  for (std::size_t i = 1; i < fields.size(); ++i)
    headers.push_back({std::move(fields[i].first), std::move(fields[i].second)});
  return from_cloudevents_headers(headers, std::move(payload), std::move(destination),
                                  kCloudEventsRedisPrefix);
}

}  // namespace docket::redis::streams
