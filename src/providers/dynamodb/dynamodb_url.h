// A DynamoDB store URL, and where it sends requests:
//
//   dynamodb://HOST:PORT?region=REGION[&table_prefix=PREFIX]
//       a server at HOST:PORT over plain HTTP: DynamoDB Local
//       (dynamodb://127.0.0.1:8000?region=us-east-1&table_prefix=app_)
//   dynamodb://aws?region=REGION[&table_prefix=PREFIX]
//       the AWS service of REGION over HTTPS, https://dynamodb.REGION.amazonaws.com
//       (amazonaws.com.cn for the cn- regions)
//
// region is required (it is part of every request's signature); table_prefix, prepended
// to every table docket names, lets several applications share an account. Nothing
// else is accepted: an unknown, repeated or empty parameter, a path, a fragment, user
// info (credentials come from the environment, never from the URL), a host without a
// port, a malformed region and a prefix DynamoDB could not put in a table name are
// refused, naming what was wrong and what to write instead.
//
// Thread-safety: immutable values and pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_URL_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_URL_H_

#include <optional>
#include <string>
#include <string_view>

namespace docket::dynamodb::detail {

inline constexpr std::string_view kUrlForms =
    "dynamodb://HOST:PORT?region=REGION[&table_prefix=PREFIX], "
    "dynamodb://aws?region=REGION[&table_prefix=PREFIX]";

// Table names hold 3 to 255 of these characters (DynamoDB naming rules).
inline constexpr std::string_view kTableNameCharacters =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";
inline constexpr std::size_t kMaxTableNameBytes = 255;
// A prefix leaves room for docket's own table names.
inline constexpr std::size_t kMaxTablePrefixBytes = 200;

struct StoreUrl {
  std::string text{};      // the URL as given (it carries no secret)
  bool aws = false;        // the AWS service, not a server of one's own
  std::string endpoint{};  // "http://127.0.0.1:8000/", "https://dynamodb.eu-west-1.amazonaws.com/"
  std::string host{};      // the Host header: "127.0.0.1:8000", "dynamodb.eu-west-1.amazonaws.com"
  std::string region{};    // "us-east-1"
  std::string table_prefix{};  // "" or "app_"

  // The table docket calls `base` ("inbox") under this URL: the prefix, then `base`.
  std::string table_name(std::string_view base) const { return table_prefix + std::string(base); }
};

// Throws ConfigurationError naming the URL, what is wrong in it and the forms accepted.
StoreUrl parse_store_url(std::string_view url);

// `url`, which may not parse, fit for printing: every credential it could carry
// masked (core/url_credentials.h), its user info whole, since a key or token pasted there
// is the likeliest credential in it. What the registration prints and its refusals
// quote.
std::string printable_url(std::string_view url);

// What parse_store_url would refuse `url` for, or nullopt when it is a DynamoDB URL.
std::optional<std::string> store_url_problem(std::string_view url);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_URL_H_
