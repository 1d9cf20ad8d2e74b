// The parts every document store URL shares, SCHEME://AUTHORITY[/]?NAME=VALUE&...:
// split once here, so that each provider's URL parser checks only its own authority
// forms and parameters.
//
// Internal to docket. Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_STORE_URL_PARTS_H_
#define DOCKET_PROVIDERS_KIT_STORE_URL_PARTS_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace docket::kit {

struct StoreUrlParts {
  std::string_view authority{};  // "127.0.0.1:8000", "aws": between "://" and '/' or '?'
  // The query's NAME=VALUE pairs in order (repeats kept: the caller refuses them).
  std::vector<std::pair<std::string_view, std::string_view>> parameters{};
};

// Splits `url` (a view into which the parts point). Returns what is wrong, worded to
// follow "URL '...': ", when it does not start with `scheme` ("dynamodb://"), has a
// fragment, a path other than "/", or a query parameter that is not NAME=VALUE.
// `product` names the store in the path refusal ("a DynamoDB URL").
std::variant<StoreUrlParts, std::string> split_store_url(std::string_view url,
                                                         std::string_view scheme,
                                                         std::string_view product);

// What is wrong with HOST:PORT (IPv6 hosts in brackets), or nullopt when it is fine.
// `named_form` is the provider's other authority ("'aws' (the AWS service)"), named when
// the authority is not a host; `missing_port_advice` follows a missing or bad port
// ("(DynamoDB Local listens on 8000 ...): write dynamodb://HOST:8000?region=...").
std::optional<std::string> host_port_problem(std::string_view authority,
                                             std::string_view named_form,
                                             std::string_view missing_port_advice);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_STORE_URL_PARTS_H_
