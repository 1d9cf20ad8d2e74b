// SHA-256 and HMAC-SHA256 (OpenSSL), and the lower-case hex that request signatures
// carry: AWS Signature Version 4 here, Cosmos DB's master-key signature next.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_SHA256_H_
#define DOCKET_PROVIDERS_KIT_HTTP_SHA256_H_

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace docket::kit::http {

using Sha256Digest = std::array<std::uint8_t, 32>;

Sha256Digest sha256(std::string_view data);

// HMAC-SHA256 of `data` under `key` (RFC 2104).
Sha256Digest hmac_sha256(std::span<const std::uint8_t> key, std::string_view data);
Sha256Digest hmac_sha256(std::string_view key, std::string_view data);

// Two lower-case hex digits per byte.
std::string hex_lower(std::span<const std::uint8_t> bytes);

// hex_lower(sha256(data)): the payload hash of a signed request.
std::string sha256_hex(std::string_view data);

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_SHA256_H_
