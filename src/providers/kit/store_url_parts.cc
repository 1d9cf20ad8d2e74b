#include "providers/kit/store_url_parts.h"

#include <algorithm>
#include <cctype>

namespace docket::kit {
namespace {

bool url_chars_all_of(std::string_view text, std::string_view allowed) {
  return std::all_of(text.begin(), text.end(),
                     [&](char c) { return allowed.find(c) != std::string_view::npos; });
}

// A host name or IPv4 address: letters, digits, '.', '-'; or an IPv6 address in [].
bool valid_url_host(std::string_view host) {
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    return url_chars_all_of(host.substr(1, host.size() - 2), "0123456789abcdefABCDEF:.");
  }
  return !host.empty() &&
         url_chars_all_of(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");
}

}  // namespace

std::variant<StoreUrlParts, std::string> split_store_url(std::string_view url,
                                                         std::string_view scheme,
                                                         std::string_view product) {
  if (!url.starts_with(scheme)) {
    return "it does not start with " + std::string(scheme);
  }
  if (url.find('#') != std::string_view::npos) {
    return std::string("it has a fragment ('#'); remove it");
  }
  StoreUrlParts parts;
  std::string_view rest = url.substr(scheme.size());
  const std::size_t question = rest.find('?');
  const std::string_view query =
      question == std::string_view::npos ? std::string_view() : rest.substr(question + 1);
  rest = rest.substr(0, question);
  parts.authority = rest.substr(0, rest.find('/'));
  if (const std::string_view path = rest.substr(parts.authority.size());
      !path.empty() && path != "/") {
    return "it has the path '" + std::string(path) + "'; " + std::string(product) +
           " names a server and parameters only";
  }
  std::size_t start = 0;
  while (!query.empty() && start <= query.size()) {
    const std::size_t end = std::min(query.find('&', start), query.size());
    const std::string_view pair = query.substr(start, end - start);
    const std::size_t equals = pair.find('=');
    if (pair.empty() || equals == std::string_view::npos) {
      return "its parameter '" + std::string(pair) + "' is not NAME=VALUE";
    }
    parts.parameters.emplace_back(pair.substr(0, equals), pair.substr(equals + 1));
    start = end + 1;
  }
  return parts;
}

std::optional<std::string> host_port_problem(std::string_view authority,
                                             std::string_view named_form,
                                             std::string_view missing_port_advice) {
  const std::size_t colon = authority.rfind(':');
  const std::string_view host =
      colon == std::string_view::npos ? authority : authority.substr(0, colon);
  if (authority.empty() || !valid_url_host(host) ||
      (colon != std::string_view::npos && host.front() != '[' &&
       host.find(':') != std::string_view::npos)) {
    return "'" + std::string(authority) + "' is neither " + std::string(named_form) +
           " nor HOST:PORT of a server of one's own (write IPv6 addresses in brackets: "
           "[::1]:8000)";
  }
  const std::string_view port =
      colon == std::string_view::npos ? std::string_view() : authority.substr(colon + 1);
  int number = 0;
  for (const char c : port) {
    number = std::isdigit(static_cast<unsigned char>(c)) != 0 && number <= 65535
                 ? number * 10 + (c - '0')
                 : 100000;
  }
  if (port.empty() || number < 1 || number > 65535) {
    return "host '" + std::string(host) + "' needs a port from 1 to 65535 " +
           std::string(missing_port_advice);
  }
  return std::nullopt;
}

}  // namespace docket::kit
