// A docket message as one Redis stream entry, and back: the payload in the field
// "data", first, then the CloudEvents binary-mode attributes as fields named "ce_<name>"
// (the prefix of CloudEvents' Kafka binding, a log of records with headers, as a stream
// is; "ce_id" is the outbox id, verbatim), the content type as "content-type", and the
// application's headers as themselves (docket/transports/cloudevents.h). The
// destination is the stream's, not a field.
//
// Invariant: decode(encode(m)) == m for every message encode accepts; an entry whose
// first field is not "data" or whose fields are not a CloudEvents message is refused
// with InvalidInputError naming what is wrong.
//
// Thread-safety: pure functions.
#ifndef DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_WIRE_H_
#define DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_WIRE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/transports/transport_message.h"

namespace docket::redis::streams {

inline constexpr std::string_view kCloudEventsRedisPrefix = "ce_";
inline constexpr std::string_view kDataField = "data";

// An entry's fields, in order, as name/value pairs.
using Fields = std::vector<std::pair<std::string, std::string>>;

// The fields of `message`. Throws InvalidInputError (cloudevents.h's) for a header that
// would pass for an attribute.
Fields encode_entry(const TransportMessage& message);

// The bytes `fields` take on the server, roughly: what max_message_bytes bounds.
std::size_t entry_bytes(const Fields& fields);

// The message an entry of `destination`'s stream carries. Throws InvalidInputError.
TransportMessage decode_entry(Fields fields, std::string destination);

}  // namespace docket::redis::streams

#endif  // DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_WIRE_H_
