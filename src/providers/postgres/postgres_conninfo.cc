#include "providers/postgres/postgres_conninfo.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "docket/core/error.h"
#include "providers/postgres/postgres_libpq_text.h"

namespace docket::postgres::detail {
namespace {

constexpr std::string_view kRedacted = "********";

struct OptionsDeleter {
  void operator()(PQconninfoOption* options) const { PQconninfoFree(options); }
};
struct FreememDeleter {
  void operator()(char* text) const { PQfreemem(text); }
};

bool is_secret_keyword(std::string_view keyword) {
  return keyword == "password" || keyword == "sslpassword";
}

// Best-effort RFC 3986 percent-decoding; malformed escapes are kept as written.
std::string percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    int high = i + 2 < text.size() && text[i] == '%' ? hex_digit_value(text[i + 1]) : -1;
    int low = high >= 0 ? hex_digit_value(text[i + 2]) : -1;
    if (low >= 0) {
      out.push_back(static_cast<char>(high * 16 + low));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

void add_candidate(std::vector<std::string>& candidates, std::string_view value) {
  if (!value.empty()) {
    candidates.emplace_back(value);
    candidates.push_back(percent_decode(value));
  }
}

// Passwords as written in the text, found the way libpq reads them, also when the
// string as a whole does not parse: the user-info of a URL, and every
// `password=` / `sslpassword=` pair (keyword/value form or URL query parameter).
std::vector<std::string> written_secrets(std::string_view conninfo) {
  std::vector<std::string> candidates;
  // Any scheme, not only libpq's two: a mistyped one ("postgresq://app:pw@db") makes
  // libpq read the whole URL as keyword/value text and echo it in its refusal. The
  // user info ends at the first '@' (libpq) or at the last '@' before the path (a raw
  // '@' in the password), so both readings are candidates.
  if (const std::size_t scheme_end = conninfo.find("://"); scheme_end != std::string_view::npos) {
    const std::string_view rest = conninfo.substr(scheme_end + 3);
    const std::string_view authority = rest.substr(0, rest.find('/'));
    for (const std::size_t end : {rest.find_first_of("@/"), authority.rfind('@')}) {
      if (end != std::string_view::npos && rest[end] == '@') {
        std::string_view user_info = rest.substr(0, end);
        std::size_t colon = user_info.find(':');
        if (colon != std::string_view::npos) {
          add_candidate(candidates, user_info.substr(colon + 1));
        }
      }
    }
  }
  for (std::string_view keyword : {"sslpassword", "password"}) {
    for (std::size_t at = conninfo.find(keyword); at != std::string_view::npos;
         at = conninfo.find(keyword, at + 1)) {
      std::size_t i = at + keyword.size();
      while (i < conninfo.size() && std::isspace(static_cast<unsigned char>(conninfo[i]))) {
        ++i;
      }
      if (i >= conninfo.size() || conninfo[i] != '=') {
        continue;
      }
      ++i;
      while (i < conninfo.size() && std::isspace(static_cast<unsigned char>(conninfo[i]))) {
        ++i;
      }
      std::size_t start = i;
      if (i < conninfo.size() && conninfo[i] == '\'') {
        std::string unquoted;
        for (++i; i < conninfo.size() && conninfo[i] != '\''; ++i) {
          if (conninfo[i] == '\\' && i + 1 < conninfo.size()) {
            ++i;
          }
          unquoted.push_back(conninfo[i]);
        }
        add_candidate(candidates, unquoted);
        add_candidate(candidates, conninfo.substr(start + 1, i - start - 1));
      } else {
        while (i < conninfo.size() && !std::isspace(static_cast<unsigned char>(conninfo[i])) &&
               conninfo[i] != '&') {
          ++i;
        }
        add_candidate(candidates, conninfo.substr(start, i - start));
      }
    }
  }
  return candidates;
}

std::string replace_all(std::string text, std::string_view needle) {
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + kRedacted.size())) {
    text.replace(at, needle.size(), kRedacted);
  }
  return text;
}

std::string describe(const std::vector<std::pair<std::string, std::string>>& settings) {
  auto setting = [&](std::string_view keyword) -> std::string {
    for (const auto& [key, value] : settings) {
      if (key == keyword) {
        return value;
      }
    }
    return {};
  };
  std::string host = setting("host");
  if (host.empty()) {
    host = setting("hostaddr");
  }
  std::string port = setting("port");
  std::string dbname = setting("dbname");
  std::string user = setting("user");
  std::string text = "database ";
  text += dbname.empty() ? "(libpq default)" : "\"" + dbname + "\"";
  text += " on ";
  text += host.empty() ? "(libpq default host)" : host;
  text += port.empty() ? "" : ":" + port;
  text += " as user ";
  text += user.empty() ? "(libpq default)" : "\"" + user + "\"";
  return text;
}

}  // namespace

std::string redact_password(std::string message, std::string_view conninfo) {
  std::vector<std::string> secrets = written_secrets(conninfo);
  char* error = nullptr;
  std::unique_ptr<PQconninfoOption, OptionsDeleter> options(
      PQconninfoParse(std::string(conninfo).c_str(), &error));
  std::unique_ptr<char, FreememDeleter> error_owner(error);
  for (const PQconninfoOption* option = options.get(); option != nullptr && option->keyword;
       ++option) {
    if (option->val != nullptr && is_secret_keyword(option->keyword)) {
      add_candidate(secrets, option->val);
    }
  }
  // Longest first: a shorter candidate inside a longer one would otherwise leave the
  // rest of the longer one shown.
  std::ranges::sort(secrets,
                    [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const std::string& secret : secrets) {
    if (!secret.empty()) {
      message = replace_all(std::move(message), secret);
    }
  }
  return message;
}

ConnInfo parse_conninfo(std::string_view conninfo) {
  char* error = nullptr;
  std::unique_ptr<PQconninfoOption, OptionsDeleter> options(
      PQconninfoParse(std::string(conninfo).c_str(), &error));
  std::unique_ptr<char, FreememDeleter> error_owner(error);
  if (options == nullptr) {
    std::string reason = libpq_message(error != nullptr ? error : "out of memory");
    throw ConfigurationError(redact_password(
        "the PostgreSQL connection string cannot be parsed: " + reason +
            "; give a URL (postgresql://user@host:port/database?sslmode=...) or libpq "
            "keyword=value pairs (host=... port=... dbname=... user=...)",
        conninfo));
  }
  ConnInfo info;
  for (const PQconninfoOption* option = options.get(); option->keyword != nullptr; ++option) {
    if (option->val != nullptr) {
      info.settings.emplace_back(option->keyword, option->val);
    }
  }
  info.description = describe(info.settings);
  return info;
}

}  // namespace docket::postgres::detail
