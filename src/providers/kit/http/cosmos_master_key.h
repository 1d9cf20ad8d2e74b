// Cosmos DB's master-key authorization (the "type=master&ver=1.0&sig=..." Authorization
// header), as Microsoft's REST API reference documents it ("Access control on Cosmos DB
// resources"):
//
//   string to sign   lower(verb) \n lower(resource type) \n resource link \n lower(date) \n \n
//   signature        base64(HMAC-SHA256(base64-decoded master key, string to sign))
//   header value     url-encode("type=master&ver=1.0&sig=" + signature)
//
// The resource link keeps its case ("dbs/ToDoList"); the date is the request's x-ms-date
// header (RFC 7231: "Thu, 27 Apr 2017 00:51:12 GMT"), which the service requires within
// 15 minutes of its own clock. The header value is encoded as the documented example is:
// every byte but A-Z a-z 0-9 - . _ ~ as %xx with lower-case hex digits.
//
// The key is a secret: a CosmosMasterKey never prints it, and no message here quotes it.
// The unit tests check it against the documented example, and docket's patch of the test
// server (scripts/cosmos/docket-cosmos-server.js) checks every request's signature.
//
// Thread-safety: a CosmosMasterKey is immutable; the functions are pure.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_COSMOS_MASTER_KEY_H_
#define DOCKET_PROVIDERS_KIT_HTTP_COSMOS_MASTER_KEY_H_

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace docket::kit::http {

// What one request's signature covers. Views: the caller's strings outlive the call.
struct CosmosSignedResource {
  std::string_view verb{};           // "GET", "POST", ...
  std::string_view resource_type{};  // "dbs", "colls", "docs", "pkranges"
  std::string_view resource_link{};  // "dbs/ToDoList", "" for the list of databases
  std::string_view date{};           // the x-ms-date header, RFC 7231
};

class CosmosMasterKey {
 public:
  // The key as the Azure portal shows it (base64), or nullopt when `base64_key` is empty
  // or not padded base64 of the standard alphabet.
  static std::optional<CosmosMasterKey> from_base64(std::string_view base64_key);

  // The Authorization header's value for `resource`, url-encoded.
  std::string authorization(const CosmosSignedResource& resource) const;

  // The signature alone (base64), for the tests that check each step.
  std::string signature(const CosmosSignedResource& resource) const;

 private:
  explicit CosmosMasterKey(std::string key) : key_(std::move(key)) {}

  std::string key_;  // the decoded key bytes; never printed
};

// The string the signature is an HMAC of (the header comment's first line).
std::string cosmos_string_to_sign(const CosmosSignedResource& resource);

// `now` as x-ms-date carries it: "Thu, 27 Apr 2017 00:51:12 GMT" (RFC 7231, UTC).
std::string cosmos_http_date(std::chrono::system_clock::time_point now);

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_COSMOS_MASTER_KEY_H_
