// Base64 (RFC 4648, standard alphabet, '=' padding), as the document stores' JSON
// protocols carry binary values (DynamoDB's B attribute, Firestore's bytesValue):
// docket writes opaque bytes (an event payload) as binary so that the store keeps and
// counts them byte for byte, never as text.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_BASE64_H_
#define DOCKET_PROVIDERS_KIT_BASE64_H_

#include <optional>
#include <string>
#include <string_view>

namespace docket::kit {

std::string base64_encode(std::string_view bytes);

// The bytes `text` encodes, or nullopt when it is not padded base64 of the standard
// alphabet (a length that is not a multiple of 4, a character outside it, padding
// anywhere but at the end).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_BASE64_H_
