// EnvironmentLookup: where a document provider's client reads its credentials (AWS keys,
// an access token), so that a test can give its own instead of the process environment.
//
// Thread-safety: process_environment reads the process environment, which no thread may
// change meanwhile.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_ENVIRONMENT_LOOKUP_H_
#define DOCKET_PROVIDERS_KIT_HTTP_ENVIRONMENT_LOOKUP_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace docket::kit::http {

// An environment variable's value, or nullopt when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(std::string_view name)>;

// The default lookup: getenv.
std::optional<std::string> process_environment(std::string_view name);

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_ENVIRONMENT_LOOKUP_H_
