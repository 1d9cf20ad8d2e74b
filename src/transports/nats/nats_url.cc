#include "transports/nats/nats_url.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <set>

#include "core/url_credentials.h"
#include "core/url_text.h"
#include "docket/core/error.h"

namespace docket::nats::detail {
namespace {

using std::chrono::milliseconds;

constexpr std::string_view kScheme = "nats://";
constexpr std::string_view kForm =
    "nats://[user:password@]host[:port]?stream=NAME[&subject=SUBJECT,...&timeout=DURATION&"
    "ack_wait=DURATION&max_deliver=N&max_ack_pending=N&duplicate_window=DURATION&"
    "max_msg_size=BYTES&max_age=DURATION] (a DURATION such as 500ms, 30s, 2m)";
constexpr std::string_view kOptions =
    "stream, subject, timeout, ack_wait, max_deliver, max_ack_pending, duplicate_window, "
    "max_msg_size, max_age";

[[noreturn]] void refuse(std::string_view url, const std::string& problem) {
  throw ConfigurationError("NATS URL " +
                           core::mask_url_credentials(url, core::UserInfoAlone::kCredential) +
                           ": " + problem + "; expected " + std::string(kForm));
}

// `text` with every %XX decoded; `part` names it in the refusal of a bad escape.
std::string percent_decode(std::string_view url, std::string_view text, std::string_view part) {
  std::optional<std::string> decoded = core::percent_decoded(text);
  if (!decoded)
    refuse(url, "the " + std::string(part) +
                    " has a '%' not followed by two hex digits (write a literal '%' as %25)");
  return *std::move(decoded);
}

std::int64_t option_number(std::string_view url, std::string_view name, std::string_view value,
                           std::int64_t min, std::int64_t max) {
  const auto number = core::whole_number(value);
  if (!number || *number < static_cast<std::uint64_t>(min) ||
      *number > static_cast<std::uint64_t>(max))
    refuse(url, "option " + std::string(name) + " is '" + std::string(value) +
                    "'; give a whole number from " + std::to_string(min) + " to " +
                    std::to_string(max));
  return static_cast<std::int64_t>(*number);
}

milliseconds option_duration(std::string_view url, std::string_view name, std::string_view value,
                             milliseconds min, milliseconds max) {
  const std::size_t digits = static_cast<std::size_t>(
      std::find_if(value.begin(), value.end(),
                   [](char c) { return std::isdigit(static_cast<unsigned char>(c)) == 0; }) -
      value.begin());
  const auto number = core::whole_number(value.substr(0, digits));
  const std::string_view unit = value.substr(digits);
  std::optional<std::int64_t> scale;
  if (unit == "ms")
    scale = 1;
  else if (unit == "s")
    scale = 1000;
  else if (unit == "m")
    scale = 60'000;
  else if (unit == "h")
    scale = 3'600'000;
  else if (unit == "d")
    scale = 86'400'000;
  const auto describe = [](milliseconds d) { return std::to_string(d.count()) + "ms"; };
  if (!number || !scale || *number > static_cast<std::uint64_t>(max.count()) ||
      milliseconds(static_cast<std::int64_t>(*number) * *scale) < min ||
      milliseconds(static_cast<std::int64_t>(*number) * *scale) > max)
    refuse(url, "option " + std::string(name) + " is '" + std::string(value) +
                    "'; give a duration from " + describe(min) + " to " + describe(max) +
                    " as a whole number and a unit (ms, s, m, h, d), e.g. 30s");
  return milliseconds(static_cast<std::int64_t>(*number) * *scale);
}

// Stream names: JetStream refuses '.', '*', '>', whitespace and path separators; docket
// keeps to the portable set.
bool is_stream_name(std::string_view name) {
  return !name.empty() && name.size() <= 255 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
  });
}

bool is_subject_filter(std::string_view filter) {
  if (filter.empty() || filter.size() > 4096)
    return false;
  std::size_t begin = 0;
  while (true) {
    const std::size_t dot = filter.find('.', begin);
    const std::string_view token =
        filter.substr(begin, dot == std::string_view::npos ? std::string_view::npos : dot - begin);
    if (token.empty())
      return false;
    const bool wildcard = token == "*" || token == ">";
    if (!wildcard && !is_publish_subject(token))
      return false;
    if (token == ">" && dot != std::string_view::npos)
      return false;  // '>' only last
    if (dot == std::string_view::npos)
      return true;
    begin = dot + 1;
  }
}

void apply_option(std::string_view url, ServerUrl& out, std::string_view name,
                  std::string_view raw_value) {
  const std::string value = percent_decode(url, raw_value, "option " + std::string(name));
  constexpr milliseconds kMaxDuration = std::chrono::hours(24 * 365);
  if (name == "stream") {
    if (!is_stream_name(value))
      refuse(url, "option stream is '" + value +
                      "'; name a stream of 1 to 255 letters, digits, '-' and '_'");
    out.stream = value;
  } else if (name == "subject") {
    std::size_t begin = 0;
    while (begin <= value.size()) {
      const std::size_t comma = std::min(value.find(',', begin), value.size());
      const std::string subject = value.substr(begin, comma - begin);
      if (!is_subject_filter(subject))
        refuse(url, "option subject holds '" + subject +
                        "', which is not a NATS subject (dot-separated tokens without "
                        "whitespace; '*' for one token, '>' last for the rest)");
      out.subjects.push_back(subject);
      begin = comma + 1;
    }
  } else if (name == "timeout") {
    out.timeout = option_duration(url, name, value, milliseconds(1), std::chrono::hours(1));
  } else if (name == "ack_wait") {
    // JetStream refuses an AckWait under a millisecond; an hour-scale wait is plausible.
    out.ack_wait = option_duration(url, name, value, milliseconds(100), std::chrono::hours(24));
  } else if (name == "max_deliver") {
    out.max_deliver = option_number(url, name, value, 1, std::numeric_limits<std::int32_t>::max());
  } else if (name == "max_ack_pending") {
    out.max_ack_pending = option_number(url, name, value, 1, 1'000'000);
  } else if (name == "duplicate_window") {
    out.duplicate_window = option_duration(url, name, value, milliseconds(100), kMaxDuration);
  } else if (name == "max_msg_size") {
    out.max_msg_size = static_cast<std::int32_t>(
        option_number(url, name, value, 1, std::numeric_limits<std::int32_t>::max()));
  } else if (name == "max_age") {
    out.max_age = option_duration(url, name, value, std::chrono::seconds(1), kMaxDuration * 100);
  } else {
    refuse(url,
           "unknown option '" + std::string(name) + "' (known: " + std::string(kOptions) + ")");
  }
}

void parse_authority(std::string_view url, std::string_view authority, ServerUrl& out) {
  const std::size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    const std::string_view user_info = authority.substr(0, at);
    const std::size_t colon = user_info.find(':');
    if (colon == std::string_view::npos)
      refuse(url, "the user has no password (write user:password@, percent-encoded)");
    out.user = percent_decode(url, user_info.substr(0, colon), "user");
    out.password = percent_decode(url, user_info.substr(colon + 1), "password");
    if (out.user->empty())
      refuse(url, "the user is empty");
    authority = authority.substr(at + 1);
  }
  const std::size_t colon = authority.find(':');
  out.host = std::string(authority.substr(0, colon));
  if (out.host.empty())
    refuse(url, "the host is empty");
  if (out.host.starts_with('['))
    refuse(url, "IPv6 hosts are not supported; give an IPv4 address or a host name");
  if (colon != std::string_view::npos) {
    const std::string_view port_text = authority.substr(colon + 1);
    const auto port = core::whole_number(port_text);
    if (!port || *port < 1 || *port > 65535)
      refuse(url, "the port '" + std::string(port_text) + "' is not a number from 1 to 65535");
    out.port = static_cast<int>(*port);
  }
}

std::string encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~' || c == '*' ||
        c == '>')
      out.push_back(c);
    else
      out += {'%', kHex[byte >> 4], kHex[byte & 15]};
  }
  return out;
}

}  // namespace

bool is_publish_subject(std::string_view subject) {
  if (subject.empty() || subject.front() == '.' || subject.back() == '.' ||
      subject.find("..") != std::string_view::npos)
    return false;
  return std::all_of(subject.begin(), subject.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte > 0x20 && byte != 0x7f && c != '*' && c != '>';
  });
}

bool subject_matches(std::string_view filter, std::string_view subject) {
  while (true) {
    const std::size_t filter_dot = filter.find('.');
    const std::size_t subject_dot = subject.find('.');
    const std::string_view filter_token = filter.substr(0, filter_dot);
    if (filter_token == ">")
      return !subject.empty();
    if (subject.empty())
      return false;
    const std::string_view subject_token = subject.substr(0, subject_dot);
    if (filter_token != "*" && filter_token != subject_token)
      return false;
    if ((filter_dot == std::string_view::npos) != (subject_dot == std::string_view::npos))
      return false;
    if (filter_dot == std::string_view::npos)
      return true;
    filter = filter.substr(filter_dot + 1);
    subject = subject.substr(subject_dot + 1);
  }
}

ServerUrl parse_server_url(std::string_view url) {
  if (url.starts_with("tls://"))
    refuse(url,
           "TLS (tls://) is not supported yet; use nats:// to a loopback or otherwise "
           "protected server");
  if (!url.starts_with(kScheme))
    refuse(url, "the scheme is not nats://");
  ServerUrl out;
  std::string_view rest = url.substr(kScheme.size());
  if (rest.find('#') != std::string_view::npos)
    refuse(url, "a URL fragment ('#') is not allowed");
  const std::size_t question = rest.find('?');
  std::string_view query =
      question == std::string_view::npos ? std::string_view() : rest.substr(question + 1);
  rest = rest.substr(0, question);
  const std::size_t at = rest.rfind('@');
  const std::size_t slash = rest.find('/', at == std::string_view::npos ? 0 : at);
  if (slash != std::string_view::npos && slash + 1 < rest.size())
    refuse(url, "a NATS URL has no path; give the stream as ?stream=NAME");
  parse_authority(url, rest.substr(0, slash), out);
  std::set<std::string, std::less<>> seen;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty())
      continue;
    const std::size_t eq = pair.find('=');
    if (eq == std::string_view::npos)
      refuse(url, "option '" + std::string(pair) + "' has no value (write NAME=VALUE)");
    const std::string_view name = pair.substr(0, eq);
    if (!seen.insert(std::string(name)).second)
      refuse(url, "option " + std::string(name) + " is given twice");
    apply_option(url, out, name, pair.substr(eq + 1));
  }
  return out;
}

std::string address(const ServerUrl& url) {
  return std::string(kScheme) + url.host + ":" + std::to_string(url.port);
}

std::string printable(const ServerUrl& url) {
  std::string out(kScheme);
  if (url.user)
    out += encode(*url.user) + ":***@";
  out += url.host + ":" + std::to_string(url.port);
  std::string query;
  const auto add = [&](std::string_view name, const std::string& value) {
    query += (query.empty() ? "?" : "&") + std::string(name) + "=" + value;
  };
  if (!url.stream.empty())
    add("stream", encode(url.stream));
  if (!url.subjects.empty()) {
    std::string joined;
    for (const std::string& subject : url.subjects)
      joined += (joined.empty() ? "" : ",") + encode(subject);
    add("subject", joined);
  }
  return out + query;
}

}  // namespace docket::nats::detail
