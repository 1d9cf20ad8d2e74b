#include "transports/rabbitmq/rabbitmq_url.h"

#include <cctype>
#include <charconv>
#include <optional>
#include <set>

#include "core/url_credentials.h"
#include "core/url_text.h"
#include "docket/core/error.h"

namespace docket::rabbitmq::detail {
namespace {

constexpr std::string_view kScheme = "amqp://";
constexpr std::string_view kForm =
    "amqp://user:password@host[:port][/vhost][?exchange=NAME&heartbeat=SECONDS&"
    "connect_timeout_ms=MS&frame_max=BYTES&max_message_size=BYTES]";

[[noreturn]] void refuse(std::string_view url, const std::string& problem) {
  throw ConfigurationError("RabbitMQ URL " + printable_url_text(url) + ": " + problem +
                           "; expected " + std::string(kForm));
}

// `text` with every %XX decoded; `part` names it in the refusal of a bad escape.
std::string percent_decode(std::string_view url, std::string_view text, std::string_view part) {
  std::optional<std::string> decoded = core::percent_decoded(text);
  if (!decoded)
    refuse(url, "the " + std::string(part) +
                    " has a '%' not followed by two hex digits (write a literal '%' as %25)");
  return *std::move(decoded);
}

std::uint64_t option_number(std::string_view url, std::string_view name, std::string_view value,
                            std::uint64_t min, std::uint64_t max) {
  const auto number = core::whole_number(value);
  if (!number || *number < min || *number > max) {
    refuse(url, "option " + std::string(name) + " is '" + std::string(value) +
                    "'; give a whole number from " + std::to_string(min) + " to " +
                    std::to_string(max));
  }
  return *number;
}

void apply_option(std::string_view url, BrokerUrl& out, std::string_view name,
                  std::string_view raw_value) {
  const std::string value = percent_decode(url, raw_value, "option " + std::string(name));
  if (name == "exchange") {
    if (value.empty() || value.size() > 255) {
      refuse(url, "option exchange must name an exchange of 1 to 255 bytes");
    }
    out.exchange = value;
  } else if (name == "heartbeat") {
    out.heartbeat_seconds = static_cast<int>(option_number(url, name, value, 0, 65535));
  } else if (name == "connect_timeout_ms") {
    out.connect_timeout = std::chrono::milliseconds(option_number(url, name, value, 1, 3'600'000));
  } else if (name == "frame_max") {
    // AMQP 0-9-1's lower bound on frame_max is 4096.
    out.frame_max = static_cast<int>(option_number(url, name, value, 4096, 1 << 30));
  } else if (name == "max_message_size") {
    // RabbitMQ caps max_message_size at 512 MiB.
    out.max_message_size = option_number(url, name, value, 1, 536870912);
  } else {
    refuse(url, "unknown option '" + std::string(name) +
                    "' (known: exchange, heartbeat, connect_timeout_ms, frame_max, "
                    "max_message_size)");
  }
}

void parse_query(std::string_view url, std::string_view query, BrokerUrl& out) {
  std::set<std::string, std::less<>> seen;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty())
      continue;
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      refuse(url, "option '" + std::string(pair) + "' has no value (write NAME=VALUE)");
    }
    const std::string_view name = pair.substr(0, eq);
    if (!seen.insert(std::string(name)).second) {
      refuse(url, "option " + std::string(name) + " is given twice");
    }
    apply_option(url, out, name, pair.substr(eq + 1));
  }
}

void parse_authority(std::string_view url, std::string_view authority, BrokerUrl& out) {
  const std::size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    const std::string_view user_info = authority.substr(0, at);
    const std::size_t colon = user_info.find(':');
    out.user = percent_decode(url, user_info.substr(0, colon), "user");
    out.password = colon == std::string_view::npos
                       ? std::string()
                       : percent_decode(url, user_info.substr(colon + 1), "password");
    if (out.user.empty())
      refuse(url, "the user is empty");
    authority = authority.substr(at + 1);
  }
  std::string_view port_text;
  if (authority.starts_with('[')) {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos)
      refuse(url, "an IPv6 host has no closing ']'");
    out.host = std::string(authority.substr(1, close - 1));
    const std::string_view rest = authority.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':'))
      refuse(url, "text follows the IPv6 host");
    if (!rest.empty())
      port_text = rest.substr(1);
  } else {
    const std::size_t colon = authority.find(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos)
      port_text = authority.substr(colon + 1);
  }
  if (out.host.empty())
    refuse(url, "the host is empty");
  if (authority.find(':') != std::string_view::npos || authority.starts_with('[')) {
    const auto port = core::whole_number(port_text);
    if (!port || *port < 1 || *port > 65535) {
      refuse(url, "the port '" + std::string(port_text) + "' is not a number from 1 to 65535");
    }
    out.port = static_cast<int>(*port);
  }
}

}  // namespace

BrokerUrl parse_broker_url(std::string_view url) {
  if (url.starts_with("amqps://")) {
    refuse(url,
           "TLS (amqps://) is not supported yet; use amqp:// to a loopback or "
           "otherwise protected broker");
  }
  if (!url.starts_with(kScheme))
    refuse(url, "the scheme is not amqp://");
  BrokerUrl out;
  std::string_view rest = url.substr(kScheme.size());
  const std::size_t fragment = rest.find('#');
  if (fragment != std::string_view::npos)
    refuse(url, "a URL fragment ('#') is not allowed");
  const std::size_t question = rest.find('?');
  const std::string_view query =
      question == std::string_view::npos ? std::string_view() : rest.substr(question + 1);
  rest = rest.substr(0, question);
  // The user info may hold a raw '/' only percent-encoded, so the authority ends at the
  // first '/' after its last '@'.
  const std::size_t at = rest.rfind('@');
  const std::size_t slash = rest.find('/', at == std::string_view::npos ? 0 : at);
  parse_authority(url, rest.substr(0, slash), out);
  if (slash != std::string_view::npos) {
    const std::string_view path = rest.substr(slash + 1);
    if (path.find('/') != std::string_view::npos) {
      refuse(url, "the vhost has a raw '/'; write it percent-encoded as %2F");
    }
    if (!path.empty())
      out.vhost = percent_decode(url, path, "vhost");
  }
  parse_query(url, query, out);
  return out;
}

std::string printable(const BrokerUrl& url) {
  auto encode = [](std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
        out.push_back(c);
      } else {
        out += {'%', kHex[byte >> 4], kHex[byte & 15]};
      }
    }
    return out;
  };
  const bool ipv6 = url.host.find(':') != std::string::npos;
  std::string out = std::string(kScheme) + encode(url.user) + ":***@" +
                    (ipv6 ? "[" + url.host + "]" : url.host) + ":" + std::to_string(url.port) +
                    "/" + encode(url.vhost);
  if (!url.exchange.empty())
    out += "?exchange=" + encode(url.exchange);
  return out;
}

std::string printable_url_text(std::string_view url) {
  return core::mask_url_credentials(url);
}

}  // namespace docket::rabbitmq::detail
