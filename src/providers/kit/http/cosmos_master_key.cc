#include "providers/kit/http/cosmos_master_key.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <utility>

#include "providers/kit/base64.h"
#include "providers/kit/http/sha256.h"

namespace docket::kit::http {
namespace {

std::string cosmos_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Every byte but the unreserved ones as %xx, lower-case hex, as the documented example.
std::string cosmos_url_encoded(std::string_view text) {
  constexpr std::string_view kHex = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[byte >> 4]);
      out.push_back(kHex[byte & 0x0f]);
    }
  }
  return out;
}

}  // namespace

std::optional<CosmosMasterKey> CosmosMasterKey::from_base64(std::string_view base64_key) {
  std::optional<std::string> key = base64_decode(base64_key);
  if (!key || key->empty()) {
    return std::nullopt;
  }
  return CosmosMasterKey(std::move(*key));
}

std::string cosmos_string_to_sign(const CosmosSignedResource& resource) {
  return cosmos_lower(resource.verb) + "\n" + cosmos_lower(resource.resource_type) + "\n" +
         std::string(resource.resource_link) + "\n" + cosmos_lower(resource.date) + "\n\n";
}

std::string CosmosMasterKey::signature(const CosmosSignedResource& resource) const {
  const Sha256Digest mac = hmac_sha256(std::string_view(key_), cosmos_string_to_sign(resource));
  return base64_encode(std::string_view(reinterpret_cast<const char*>(mac.data()), mac.size()));
}

std::string CosmosMasterKey::authorization(const CosmosSignedResource& resource) const {
  return cosmos_url_encoded("type=master&ver=1.0&sig=" + signature(resource));
}

std::string cosmos_http_date(std::chrono::system_clock::time_point now) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::array<char, 40> text{};
  // The C locale's names, whatever the process's locale: the service parses English.
  constexpr std::array<std::string_view, 7> kDays = {"Sun", "Mon", "Tue", "Wed",
                                                     "Thu", "Fri", "Sat"};
  constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const int length =
      std::snprintf(text.data(), text.size(), "%s, %02d %s %04d %02d:%02d:%02d GMT",
                    kDays.at(static_cast<std::size_t>(utc.tm_wday)).data(), utc.tm_mday,
                    kMonths.at(static_cast<std::size_t>(utc.tm_mon)).data(), utc.tm_year + 1900,
                    utc.tm_hour, utc.tm_min, utc.tm_sec);
  return std::string(text.data(), static_cast<std::size_t>(length));
}

}  // namespace docket::kit::http
