// open_transport() over this build's broker transports: the generated list
// (builtin_transport_list.h) names each registration; the URL's scheme picks one.
#include "docket/transports/open_transport.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "core/url_credentials.h"
#include "docket/core/error.h"
#include "transports/builtin_transport_list.h"
#include "transports/transport_registration.h"

#define DOCKET_DECLARE_TRANSPORT(name)                                       \
  namespace docket::name {                                                   \
  const docket::transports::TransportRegistration& transport_registration(); \
  }
DOCKET_BUILTIN_TRANSPORTS(DOCKET_DECLARE_TRANSPORT)
#undef DOCKET_DECLARE_TRANSPORT

namespace docket {
namespace {

struct LeftOutTransport {
  std::string_view name;
  std::string_view option;
};

// Every registration of this build, in the list's order. Empty when it has none.
std::span<const transports::TransportRegistration* const> built_transports() {
#define DOCKET_LIST_TRANSPORT(name) &docket::name::transport_registration(),
  static const std::array registrations = std::to_array<const transports::TransportRegistration*>(
      {DOCKET_BUILTIN_TRANSPORTS(DOCKET_LIST_TRANSPORT) nullptr});
#undef DOCKET_LIST_TRANSPORT
  return std::span(registrations).first(registrations.size() - 1);  // without the nullptr
}

std::span<const LeftOutTransport> left_out_transports() {
#define DOCKET_LIST_LEFT_OUT(name, option) LeftOutTransport{#name, option},
  static const std::array left_out =
      std::to_array<LeftOutTransport>({DOCKET_LEFT_OUT_TRANSPORTS(DOCKET_LIST_LEFT_OUT){}});
#undef DOCKET_LIST_LEFT_OUT
  return std::span(left_out).first(left_out.size() - 1);
}

// The text before "://", or nullopt when the URL has none.
std::optional<std::string_view> scheme_of(std::string_view url) {
  const std::size_t end = url.find("://");
  if (end == std::string_view::npos || end == 0) {
    return std::nullopt;
  }
  return url.substr(0, end);
}

[[noreturn]] void refuse(std::string_view url, std::string_view problem) {
  std::string message =
      "transport URL '" + printable_transport_url(url) + "' " + std::string(problem) + ". ";
  const auto built = built_transports();
  if (built.empty()) {
    message += "This build of docket has no broker transport";
  } else {
    message += "This build opens:";
    for (const transports::TransportRegistration* transport : built) {
      message += " " + std::string(transport->url_form) + " (" + std::string(transport->name) + ")";
    }
  }
  for (const LeftOutTransport& left_out : left_out_transports()) {
    message += "; the " + std::string(left_out.name) +
               " transport was left out of it (build with -D" + std::string(left_out.option) +
               "=ON)";
  }
  throw ConfigurationError(message);
}

}  // namespace

namespace transports {

const TransportRegistration* find_transport(std::string_view url) {
  const std::optional<std::string_view> scheme = scheme_of(url);
  if (!scheme) {
    return nullptr;
  }
  for (const TransportRegistration* transport : built_transports()) {
    if (std::ranges::find(transport->schemes, *scheme) != transport->schemes.end()) {
      return transport;
    }
  }
  return nullptr;
}

}  // namespace transports

std::unique_ptr<Transport> open_transport(std::string_view url) {
  if (const transports::TransportRegistration* transport = transports::find_transport(url)) {
    return transport->open(url);
  }
  refuse(url, scheme_of(url) ? "has a scheme no transport of this build opens"
                             : "has no scheme (the text before \"://\")");
}

std::string printable_transport_url(std::string_view url) {
  // User info alone is masked: a broker may read it as a token (nats://TOKEN@host), and
  // a user name is not worth the risk.
  return core::mask_url_credentials(url, core::UserInfoAlone::kCredential);
}

}  // namespace docket
