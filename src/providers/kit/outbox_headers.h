// The one encoding of an outbox message's headers in a single stored text (a SQL
// column, a DynamoDB or Firestore string): a JSON array of [name, value] pairs,
// [["tenant-tier","gold"],["x-b","2"]]. JSON because it is lossless for the UTF-8 text
// staging admits (only '"', '\\' and control characters escaped), keeps the order and
// is readable by an operator's SQL (PostgreSQL: headers::jsonb); pairs rather than an
// object because an object's order is not kept by jsonb and many JSON tools. No
// headers: an empty text (stored as NULL or absent), which is also what a row staged
// before routing existed reads as.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_OUTBOX_HEADERS_H_
#define DOCKET_PROVIDERS_KIT_OUTBOX_HEADERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "docket/core/message_header.h"

namespace docket::kit {

// The stored text of `headers`; empty for none. The headers are valid UTF-8 (staging
// refuses any other).
std::string encode_headers(const std::vector<MessageHeader>& headers);

// The headers encode_headers wrote; none for an empty text. Throws InfrastructureError,
// naming what is wrong, for a text that is not such an array (a row changed outside
// docket).
std::vector<MessageHeader> decode_headers(std::string_view text);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_OUTBOX_HEADERS_H_
