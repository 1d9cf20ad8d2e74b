// The Redis Streams transport's URL (redis_streams_url.h): the transport's parameters
// are taken out of the query, and the rest is the store URL's parser's.
#include "transports/redis/redis_streams_url.h"

#include <charconv>
#include <optional>
#include <set>
#include <string>
#include <system_error>

#include "docket/core/error.h"
#include "docket/keys/term_codec.h"

namespace docket::redis::streams {
namespace {

constexpr std::size_t kMaxNameBytes = 256;

std::optional<long long> decimal_in(std::string_view text, long long low, long long high) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc{} || end != text.data() + text.size() || value < low ||
      value > high) {
    return std::nullopt;
  }
  return value;
}

bool plain_name(std::string_view text) {
  if (text.empty() || text.size() > kMaxNameBytes)
    return false;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x20 || byte == 0x7f)
      return false;
  }
  return true;
}

class UrlReader {
 public:
  explicit UrlReader(std::string_view url) : printable_(detail::printable_url(url)) {}

  [[noreturn]] void refuse(const std::string& what) const {
    throw ConfigurationError("Redis Streams transport URL '" + printable_ + "': " + what +
                             "; the form is " + std::string(kStreamsUrlForm));
  }

  long long number(std::string_view name, std::string_view value, long long low,
                   long long high) const {
    const auto parsed = decimal_in(value, low, high);
    if (!parsed) {
      refuse("the parameter '" + std::string(name) + "' is '" + std::string(value) +
             "'; give a whole number from " + std::to_string(low) + " to " + std::to_string(high));
    }
    return *parsed;
  }

  std::string name(std::string_view parameter, std::string_view value) const {
    const auto decoded = keys::percent_decode(value);
    if (!decoded || !plain_name(*decoded)) {
      refuse("the parameter '" + std::string(parameter) +
             "' must be 1 to 256 bytes without spaces or control characters (percent-encoded "
             "where needed)");
    }
    return *decoded;
  }

  std::string choice(std::string_view parameter, std::string_view value, std::string_view a,
                     std::string_view b) const {
    if (value != a && value != b) {
      refuse("the parameter '" + std::string(parameter) + "' is '" + std::string(value) +
             "'; give " + std::string(a) + " or " + std::string(b));
    }
    return std::string(value);
  }

 private:
  std::string printable_;
};

}  // namespace

StreamsUrl parse_streams_url(std::string_view url) {
  const UrlReader reader(url);
  StreamsUrl out;
  std::string_view base = url;
  std::string_view query;
  if (const auto q = url.find('?'); q != std::string_view::npos) {
    base = url.substr(0, q);
    query = url.substr(q + 1);
  }
  std::string rest;  // the store URL's parameters, for its parser
  std::set<std::string, std::less<>> seen;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    const auto eq = pair.find('=');
    const std::string_view name = pair.substr(0, eq);
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1);
    if (eq == std::string_view::npos || name.empty())
      reader.refuse("the parameter '" + std::string(pair) + "' is not NAME=VALUE");
    if (!seen.emplace(name).second)
      reader.refuse("the parameter '" + std::string(name) + "' is given twice; give it once");
    if (name == "stream_prefix") {
      out.stream_prefix = reader.name(name, value);
    } else if (name == "group") {
      out.group = reader.name(name, value);
    } else if (name == "claim_idle_ms") {
      out.claim_idle = std::chrono::milliseconds(reader.number(name, value, 1000, 86400000));
    } else if (name == "max_deliveries") {
      out.max_deliveries = static_cast<std::uint32_t>(reader.number(name, value, 1, 1000000));
    } else if (name == "max_message_bytes") {
      out.max_message_bytes = static_cast<std::size_t>(reader.number(name, value, 1, 536870912));
    } else if (name == "create_stream") {
      out.create_on_publish = reader.choice(name, value, "subscribe", "publish") == "publish";
    } else if (name == "trim") {
      out.trim = reader.choice(name, value, "acked", "off") == "acked";
    } else if (name == "trim_interval_ms") {
      out.trim_interval = std::chrono::milliseconds(reader.number(name, value, 0, 86400000));
    } else if (name == "prefix") {
      reader.refuse(
          "the parameter 'prefix' is the stores' key prefix; the transport names its streams "
          "with stream_prefix (default docket:stream:)");
    } else if (name == "connect_timeout_ms" || name == "command_timeout_ms" ||
               name == "pool_size" || name == "require_fsync") {
      rest += (rest.empty() ? "?" : "&") + std::string(pair);
    } else {
      reader.refuse("the parameter '" + std::string(name) +
                    "' is unknown; the transport's are stream_prefix, group, claim_idle_ms, "
                    "max_deliveries, max_message_bytes, create_stream, trim, trim_interval_ms, "
                    "and the connection's connect_timeout_ms, command_timeout_ms, pool_size, "
                    "require_fsync");
    }
  }
  out.server = detail::parse_url(std::string(base) + rest);
  out.server.printable = detail::printable_url(url);
  return out;
}

}  // namespace docket::redis::streams
