// The Redis store URL (redis_url.h).
#include "providers/redis/redis_url.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <system_error>
#include <variant>

#include "core/url_credentials.h"
#include "docket/core/error.h"
#include "docket/keys/term_codec.h"

namespace docket::redis::detail {
namespace {

constexpr std::string_view kScheme = "redis://";
constexpr std::size_t kMaxPrefixBytes = 256;

// A decimal integer in [low, high], or nullopt.
std::optional<long long> in_range(std::string_view text, long long low, long long high) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value < low ||
      value > high) {
    return std::nullopt;
  }
  return value;
}

// The parsed URL, or what is wrong with it (worded to follow "URL '...': ").
std::variant<RedisUrl, std::string> parse(std::string_view url) {
  RedisUrl out;
  if (!url.starts_with(kScheme)) {
    return "a Redis URL starts with redis://";
  }
  std::string_view rest = url.substr(kScheme.size());
  if (rest.find('#') != std::string_view::npos) {
    return "a Redis URL has no fragment ('#'); remove it";
  }
  std::string_view query;
  if (const auto q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  std::string_view path;
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    path = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
  }
  std::string_view authority = rest;
  if (const auto at = authority.rfind('@'); at != std::string_view::npos) {
    const std::string_view info = authority.substr(0, at);
    authority = authority.substr(at + 1);
    const auto colon = info.find(':');
    if (colon == std::string_view::npos) {
      return "the user info must be ':PASSWORD' or 'USER:PASSWORD' (redis://:PASSWORD@HOST)";
    }
    const auto user = keys::percent_decode(info.substr(0, colon));
    const auto password = keys::percent_decode(info.substr(colon + 1));
    if (!user || !password) {
      return "the user info has a '%' that is not followed by two upper-case hex digits; "
             "percent-encode a '%' in a password as %25";
    }
    out.user = *user;
    out.password = *password;
    if (out.password.empty()) {
      return "the password is empty; write redis://HOST without user info for no password";
    }
  }
  std::string_view host = authority;
  std::string_view port;
  if (authority.starts_with('[')) {
    const auto close = authority.find(']');
    if (close == std::string_view::npos) {
      return "an IPv6 host must be closed with ']' (redis://[::1]:6379)";
    }
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (!after.starts_with(':')) {
        return "an IPv6 host is followed by ':PORT' or nothing";
      }
      port = after.substr(1);
      if (port.empty()) {
        return "the port after ':' is missing; write HOST:PORT (Redis listens on 6379)";
      }
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
    if (port.empty()) {
      return "the port after ':' is missing; write HOST:PORT (Redis listens on 6379)";
    }
  }
  if (host.empty()) {
    return "names no host; write redis://HOST:PORT (redis://127.0.0.1:6379)";
  }
  for (const char c : host) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == '/' || c == '?' || c == '@') {
      return "the host '" + std::string(host) + "' holds a space, a control character or " +
             "one of / ? @; write a host name or an IP address";
    }
  }
  out.host = std::string(host);
  if (!port.empty()) {
    const auto value = in_range(port, 1, 65535);
    if (!value) {
      return "the port '" + std::string(port) + "' is not a number from 1 to 65535";
    }
    out.port = static_cast<int>(*value);
  }
  if (!path.empty()) {
    const auto value = in_range(path, 0, 2147483647);
    if (!value) {
      return "the path '/" + std::string(path) +
             "' is not a database number from 0 to 2147483647; write /0 or leave it out";
    }
    out.db = *value;
  }
  bool seen[8] = {false, false, false, false, false, false, false, false};
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto eq = pair.find('=');
    if (eq == std::string_view::npos) {
      return "the parameter '" + std::string(pair) + "' is not NAME=VALUE";
    }
    const std::string_view name = pair.substr(0, eq);
    const std::string_view value = pair.substr(eq + 1);
    const auto once = [&](int slot) -> std::optional<std::string> {
      if (seen[slot]) {
        return "the parameter '" + std::string(name) + "' is given twice; give it once";
      }
      seen[slot] = true;
      return std::nullopt;
    };
    const auto number = [&](int slot, long long low, long long high,
                            long long& into) -> std::optional<std::string> {
      if (auto twice = once(slot)) {
        return twice;
      }
      const auto parsed = in_range(value, low, high);
      if (!parsed) {
        return std::string(name) + "='" + std::string(value) + "' is not a number from " +
               std::to_string(low) + " to " + std::to_string(high);
      }
      into = *parsed;
      return std::nullopt;
    };
    long long parsed = 0;
    std::optional<std::string> problem;
    if (name == "prefix") {
      problem = once(0);
      if (!problem) {
        const auto decoded = keys::percent_decode(value);
        if (!decoded || decoded->empty() || decoded->size() > kMaxPrefixBytes) {
          return "prefix='" + std::string(value) +
                 "' must be 1 to 256 bytes (percent-encoded with upper-case hex where needed)";
        }
        for (const char c : *decoded) {
          if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) {
            return "prefix='" + std::string(value) +
                   "' holds a space or a control character; choose a prefix like 'app:'";
          }
        }
        out.prefix = *decoded;
      }
    } else if (name == "connect_timeout_ms") {
      problem = number(1, 1, 600000, parsed);
      out.connect_timeout_ms = static_cast<int>(parsed);
    } else if (name == "command_timeout_ms") {
      problem = number(2, 1, 600000, parsed);
      out.command_timeout_ms = static_cast<int>(parsed);
    } else if (name == "pool_size") {
      problem = number(3, 1, 1024, parsed);
      out.pool_size = static_cast<std::size_t>(parsed);
    } else if (name == "require_fsync") {
      problem = once(4);
      if (!problem && value != "always") {
        return "require_fsync='" + std::string(value) +
               "': the only value is 'always' (leave it out to accept the server's "
               "persistence as it is)";
      }
      out.require_fsync = true;
    } else if (name == "client_name") {
      problem = once(5);
      if (!problem) {
        // CLIENT SETNAME takes 1 to 64 printable characters other than a space.
        const bool fits =
            !value.empty() && value.size() <= kMaxClientNameBytes &&
            std::all_of(value.begin(), value.end(), [](char c) { return c > 0x20 && c < 0x7f; });
        if (!fits) {
          return "client_name='" + std::string(value) +
                 "' must be 1 to 64 printable ASCII characters without spaces (Redis's "
                 "CLIENT SETNAME); choose a name like 'billing-relay'";
        }
        out.client_name = std::string(value);
      }
    } else if (name == "replicas") {
      problem = number(6, 1, kMaxReplicas, parsed);
      out.replicas = static_cast<int>(parsed);
    } else if (name == "replica_timeout_ms") {
      problem = number(7, 1, 600000, parsed);
      out.replica_timeout_ms = static_cast<int>(parsed);
    } else {
      return "the parameter '" + std::string(name) +
             "' is unknown; the parameters are prefix, connect_timeout_ms, "
             "command_timeout_ms, pool_size, require_fsync, client_name, replicas and "
             "replica_timeout_ms";
    }
    if (problem) {
      return *problem;
    }
  }
  if (seen[7] && !seen[6]) {
    return "replica_timeout_ms is how long a write waits for its replicas, and no replicas= "
           "is given; add replicas=N or leave replica_timeout_ms out";
  }
  out.printable = printable_url(url);
  return out;
}

}  // namespace

std::string RedisUrl::server() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/" + std::to_string(db);
}

std::string RedisUrl::describe_store(std::string_view store) const {
  return "the Redis " + std::string(store) + " at " + server() + " (prefix '" + prefix + "')";
}

RedisUrl parse_url(std::string_view url) {
  auto parsed = parse(url);
  if (auto* problem = std::get_if<std::string>(&parsed)) {
    throw ConfigurationError("Redis URL '" + printable_url(url) + "': " + *problem +
                             " (accepted: " + std::string(kUrlForms) + ")");
  }
  return std::get<RedisUrl>(std::move(parsed));
}

std::optional<std::string> url_problem(std::string_view url) {
  auto parsed = parse(url);
  if (auto* problem = std::get_if<std::string>(&parsed)) {
    return *problem;
  }
  return std::nullopt;
}

// A user-info without a colon is masked too: many Redis clients read redis://SECRET@host
// as the password (AUTH SECRET), so docket cannot tell it is a name.
std::string printable_url(std::string_view url) {
  return core::mask_url_credentials(url, core::UserInfoAlone::kCredential);
}

}  // namespace docket::redis::detail
