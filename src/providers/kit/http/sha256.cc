#include "providers/kit/http/sha256.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "docket/core/error.h"

namespace docket::kit::http {

Sha256Digest sha256(std::string_view data) {
  Sha256Digest digest{};
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1 ||
      size != digest.size()) {
    throw InfrastructureError(
        "SHA-256 failed in OpenSSL (EVP_Digest); the crypto library is "
        "unusable, check the OpenSSL installation");
  }
  return digest;
}

Sha256Digest hmac_sha256(std::span<const std::uint8_t> key, std::string_view data) {
  Sha256Digest mac{};
  unsigned int size = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac.data(),
           &size) == nullptr ||
      size != mac.size()) {
    throw InfrastructureError(
        "HMAC-SHA256 failed in OpenSSL (HMAC); the crypto library is "
        "unusable, check the OpenSSL installation");
  }
  return mac;
}

Sha256Digest hmac_sha256(std::string_view key, std::string_view data) {
  return hmac_sha256(std::span(reinterpret_cast<const std::uint8_t*>(key.data()), key.size()),
                     data);
}

std::string hex_lower(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (const std::uint8_t byte : bytes) {
    hex.push_back(kDigits[byte >> 4]);
    hex.push_back(kDigits[byte & 0x0f]);
  }
  return hex;
}

std::string sha256_hex(std::string_view data) {
  return hex_lower(sha256(data));
}

}  // namespace docket::kit::http
