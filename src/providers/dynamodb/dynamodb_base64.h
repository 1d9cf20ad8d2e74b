// Base64 (RFC 4648, standard alphabet, '=' padding), as DynamoDB's JSON protocol
// carries a B (binary) attribute value: docket writes opaque bytes (an event payload)
// as B so that DynamoDB stores and counts them byte for byte, never as text.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_BASE64_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_BASE64_H_

#include <optional>
#include <string>
#include <string_view>

namespace docket::dynamodb {

std::string base64_encode(std::string_view bytes);

// The bytes `text` encodes, or nullopt when it is not padded base64 of the standard
// alphabet (a length that is not a multiple of 4, a character outside it, padding
// anywhere but at the end).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace docket::dynamodb

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_BASE64_H_
