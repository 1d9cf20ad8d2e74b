// The escapes that turn key terms into key segments.
//
// Composition is injective because every escape here is reversible and removes the
// separator (':') and the escape character ('%') from what it emits: after escaping,
// a raw ':' can only be a separator and a '%' always begins a %XX escape.
//
//  - percent_encode: RFC 3986 percent-encoding of bytes. The unreserved characters
//    A-Z a-z 0-9 - . _ ~ are kept, every other byte becomes %XX with upper-case hex.
//    For valid UTF-8 input this is byte-identical to .NET's Uri.EscapeDataString.
//    The Firestore and Elasticsearch term codec.
//  - escape_reserved: the narrow escape (the MongoDB, Redis and DynamoDB term codec;
//    Cosmos DB's adds '/' '\' '?' '#', space and the ASCII control characters). Only '%', ':' and
//    the bytes listed in `also_escape` become %XX; everything else, multi-byte UTF-8 included, is
//    kept.
//
// These functions do not validate UTF-8; the key composers validate every term
// before escaping it and name the term in the error.
//
// Thread-safety: pure functions.
#ifndef DOCKET_KEYS_TERM_CODEC_H_
#define DOCKET_KEYS_TERM_CODEC_H_

#include <optional>
#include <string>
#include <string_view>

namespace docket::keys {

std::string percent_encode(std::string_view bytes);

// Appends percent_encode(bytes) to `out` (no temporary string).
void append_percent_encoded(std::string_view bytes, std::string& out);

std::string escape_reserved(std::string_view bytes, std::string_view also_escape = {});

// Appends escape_reserved(bytes, also_escape) to `out`.
void append_escaped_reserved(std::string_view bytes, std::string_view also_escape,
                             std::string& out);

// Decodes %XX escapes (upper-case hex only, as the encoders write them); every other
// byte is copied. nullopt when a '%' is not followed by two upper-case hex digits.
std::optional<std::string> percent_decode(std::string_view text);

}  // namespace docket::keys

#endif  // DOCKET_KEYS_TERM_CODEC_H_
