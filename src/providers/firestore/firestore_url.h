// A Firestore store URL, and where it sends requests:
//
//   firestore://HOST:PORT?project=PROJECT[&database=DATABASE][&prefix=PREFIX]
//       a server at HOST:PORT over plain HTTP: the Cloud Firestore emulator
//       (firestore://127.0.0.1:8080?project=demo&prefix=app_); no credentials are sent
//   firestore://googleapis?project=PROJECT[&database=DATABASE][&prefix=PREFIX]
//       the Cloud Firestore service over HTTPS, https://firestore.googleapis.com, with
//       an OAuth2 access token from the environment (firestore_client.h)
//
// project is required; database defaults to "(default)"; prefix, prepended to every
// collection docket names, lets several applications share a database. Nothing else is
// accepted: an unknown, repeated or empty parameter, a path, a fragment, user info
// (credentials come from the environment, never from the URL), a host without a port,
// a malformed project or database id and a prefix Firestore could not begin a
// collection id with are refused, naming what was wrong and what to write instead.
//
// Thread-safety: immutable values and pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_URL_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_URL_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace docket::firestore::detail {

inline constexpr std::string_view kUrlForms =
    "firestore://HOST:PORT?project=PROJECT[&database=DATABASE][&prefix=PREFIX], "
    "firestore://googleapis?project=PROJECT[&database=DATABASE][&prefix=PREFIX]";

inline constexpr std::string_view kDefaultDatabase = "(default)";
// A prefix leaves room for docket's own collection names under Firestore's limits, and
// keeps to characters that need no escaping anywhere.
inline constexpr std::size_t kMaxPrefixBytes = 100;
inline constexpr std::string_view kPrefixCharacters =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";

struct StoreUrl {
  std::string text{};       // the URL as given (it carries no secret)
  bool googleapis = false;  // the Cloud Firestore service, not a server of one's own
  std::string endpoint{};   // "http://127.0.0.1:8080", "https://firestore.googleapis.com"
  std::string project{};    // "demo"
  std::string database{};   // "(default)"
  std::string prefix{};     // "" or "app_"

  // "projects/demo/databases/(default)"
  std::string database_path() const { return "projects/" + project + "/databases/" + database; }
  // The collection docket calls `base` ("docket_claim_inbox") under this URL.
  std::string collection(std::string_view base) const { return prefix + std::string(base); }
  // The full resource name of document `id` of `collection`.
  std::string document_name(std::string_view collection, std::string_view id) const {
    return database_path() + "/documents/" + std::string(collection) + "/" + std::string(id);
  }
};

// Throws ConfigurationError naming the URL, what is wrong in it and the forms accepted.
StoreUrl parse_store_url(std::string_view url);

// `url`, which may not parse, fit for printing: every credential it could carry
// masked (core/url_credentials.h), its user info whole, since a key or token pasted there
// is the likeliest credential in it. What the registration prints and its refusals
// quote.
std::string printable_url(std::string_view url);

// What parse_store_url would refuse `url` for, or nullopt when it is a Firestore URL.
std::optional<std::string> store_url_problem(std::string_view url);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_URL_H_
