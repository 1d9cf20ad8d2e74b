// A Cosmos DB store URL, and where it sends requests:
//
//   cosmos://HOST:PORT?database=DATABASE&key=KEY[&prefix=PREFIX][&ca=PATH|&tls=off]
//
// HOST:PORT is the account's endpoint (ACCOUNT.documents.azure.com:443 for the service),
// spoken to over HTTPS and trusted through the system's certificate authorities, or
// through those of the PEM file ca=PATH (an absolute path, percent-encoded where needed:
// a test server's own certificate, scripts/cosmos-start.sh with DOCKET_COSMOS_TLS=1);
// tls=off speaks plain HTTP, for a test server on this machine. KEY is
// the account's master key (base64, percent-encoded in the URL: '+' '/' '=' as %2B %2F
// %3D), which signs every request (kit/http/cosmos_master_key.h) and is never printed:
// printable_url() masks it. DATABASE is created on first use where the key may, as are
// the containers docket names (prefixed by PREFIX, which lets several applications share
// a database).
//
// Refused, naming what was wrong and what to write instead: an unknown, repeated or empty
// parameter, a path, a fragment, user info, a host without a port, a database or prefix
// outside Cosmos DB's id rules, a key that is not base64, a ca= that is not an absolute
// path, and ca= with tls=off. (A ca file that cannot be read is refused when a store
// opens.)
//
// Thread-safety: immutable values and pure functions.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_URL_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_URL_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "providers/kit/http/cosmos_master_key.h"

namespace docket::cosmos::detail {

inline constexpr std::string_view kUrlForms =
    "cosmos://HOST:PORT?database=DATABASE&key=KEY[&prefix=PREFIX][&ca=PATH|&tls=off]";

// Docket's container names under a prefix stay well inside Cosmos DB's 255 characters.
inline constexpr std::size_t kMaxPrefixBytes = 100;
inline constexpr std::size_t kMaxDatabaseBytes = 255;

struct StoreUrl {
  std::string printable{};  // the URL as given, its key masked: what messages quote
  std::string endpoint{};   // "https://acct.documents.azure.com:443", "http://127.0.0.1:28700"
  std::string database{};   // "docket"
  std::string prefix{};     // "" or "app_"
  std::string ca_file{};    // "": the system's certificate authorities
  kit::http::CosmosMasterKey key;

  // The container docket calls `base` ("docket_claim_inbox") under this URL.
  std::string container(std::string_view base) const { return prefix + std::string(base); }
};

// Throws ConfigurationError naming the URL (its key masked), what is wrong in it and the
// forms accepted.
StoreUrl parse_store_url(std::string_view url);

// `url`, which may not parse, fit for printing: the key and any other credential masked.
std::string printable_url(std::string_view url);

// What parse_store_url would refuse `url` for, or nullopt when it is a Cosmos DB URL.
std::optional<std::string> store_url_problem(std::string_view url);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_URL_H_
