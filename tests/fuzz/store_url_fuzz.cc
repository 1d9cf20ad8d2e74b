// Fuzz target for the store URL parsers: the registry's scheme dispatch behind every
// open_*_store(url) (provider_for), printable_store_url, and every provider's own
// parser through its registration's url_problem and printable_url (each provider's
// problem check is its parser: SQLite's URL path, PostgreSQL's libpq connection
// string, DynamoDB's and Firestore's parse_store_url).
//
// Two inputs are made from the fuzz input. The raw bytes as a URL: every parser
// returns a value or refuses with a docket::Error (anything else escapes and is a
// crash); the registry refuses exactly what the URL's provider finds a problem in,
// naming the URL in its printable form; masking is idempotent. And the same bytes,
// split on their first byte into parts, composed into a URL that carries a planted
// password (kSecret) in the user info (`scheme://user:SECRET@rest`) and/or as a
// `password=` query parameter, under every scheme of the build and one of none: the
// secret must then appear in no printable form and no problem or refusal of any
// provider. The parts around it are kept from spelling the secret themselves (raw or
// percent-decoded), so any appearance is a leak.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "docket/stores/printable_store_url.h"
#include "providers/registry.h"

namespace {

constexpr std::string_view kSecret = "Zk7sEcReT9q";

// `text` printable on one line: other bytes as \xNN.
std::string escaped(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c >= 0x20 && c < 0x7f) {
      out += c;
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
      out += hex;
    }
  }
  return out;
}

[[noreturn]] void fail(const char* what, std::string_view url, std::string_view seen) {
  std::fprintf(stderr, "store url fuzz: %s\n  url: %s\n  seen: %s\n", what, escaped(url).c_str(),
               escaped(seen).c_str());
  std::abort();
}

void require(bool condition, const char* what, std::string_view url, std::string_view seen = {}) {
  if (!condition) {
    fail(what, url, seen);
  }
}

// Every text the parsers show for `url`: its printable form, each provider's problem
// with it and the registry's refusal. Checks on the way that each returns or refuses
// with a docket::Error (anything else escapes), that the registry refuses exactly what
// the URL's provider finds a problem in, and that a refusal names the printable URL.
std::vector<std::string> shown_texts(std::string_view url) {
  std::vector<std::string> shown;
  const std::string printable = docket::printable_store_url(url);
  require(docket::printable_store_url(printable) == printable, "masking is not idempotent", url,
          printable);
  shown.push_back(printable);

  const auto& registry = docket::providers::Registry::builtin();
  std::optional<std::string> own_problem;
  for (const docket::providers::ProviderRegistration* provider : registry.providers()) {
    if (provider->url_problem != nullptr) {
      if (std::optional<std::string> problem = provider->url_problem(url)) {
        if (provider == registry.find(url)) {
          own_problem = problem;
        }
        shown.push_back(*std::move(problem));
      }
    }
    if (provider->printable_url != nullptr) {
      shown.push_back(provider->printable_url(url));
    }
  }
  try {
    const auto& provider = registry.provider_for(url, "inbox store");
    require(registry.find(url) == &provider, "provider_for and find disagree", url);
    require(!own_problem, "the registry accepts a URL its provider refuses", url, *own_problem);
  } catch (const docket::ConfigurationError& error) {
    // what() ends at a NUL byte, which a URL from the command line cannot hold.
    const std::string message = error.what();
    const std::string named = "URL '" + printable + "'";
    require(message.find(named.substr(0, named.find('\0'))) != std::string::npos,
            "a refusal does not name the printable URL", url, message);
    require(own_problem || registry.find(url) == nullptr,
            "the registry refuses a URL its provider accepts", url, message);
    shown.push_back(message);
  }
  return shown;
}

// The URL schemes of this build's providers, and one no provider has.
std::vector<std::string_view> schemes() {
  std::vector<std::string_view> all;
  for (const docket::providers::ProviderRegistration* provider :
       docket::providers::Registry::builtin().providers()) {
    all.insert(all.end(), provider->schemes.begin(), provider->schemes.end());
  }
  all.push_back("nosuch");
  return all;
}

// `text` percent-decoded where a '%' is followed by two hex digits.
std::string percent_decoded(std::string_view text) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  };
  std::string decoded;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      decoded += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  return decoded;
}

// Composes a URL with the secret as its password, or nullopt when the parts could
// spell the secret themselves. The user keeps no '/', '@', '?' or '#', so the secret
// is the password by every reading: RFC 3986's authority and libpq's user info (up to
// the first '@' before any '/').
std::optional<std::string> url_with_secret(std::string_view input) {
  if (input.size() < 2) {
    return std::nullopt;
  }
  const char delimiter = input[0];
  const unsigned char form = static_cast<unsigned char>(input[1]);
  std::vector<std::string> parts;
  std::string_view rest = input.substr(2);
  while (parts.size() < 4) {
    const std::size_t at = rest.find(delimiter);
    parts.emplace_back(rest.substr(0, at));
    if (at == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(at + 1);
  }
  parts.resize(4);
  // The user as composed: what is erased from it may have split the secret's letters.
  std::erase_if(parts[0], [](char c) { return c == '/' || c == '@' || c == '?' || c == '#'; });
  for (const std::string& part : parts) {
    if (percent_decoded(part).find(kSecret) != std::string::npos ||
        part.find(kSecret) != std::string::npos) {
      return std::nullopt;
    }
  }
  static const std::vector<std::string_view> kSchemes = schemes();
  const std::string& user = parts[0];
  std::string url(kSchemes[form % kSchemes.size()]);
  url += "://";
  const bool in_user_info = (form & 0x10) == 0;
  const bool in_query = (form & 0x20) != 0 || !in_user_info;
  if (in_user_info) {
    url += user + ":" + std::string(kSecret) + "@";
  }
  url += parts[1];  // host, port, path
  if (in_query) {
    // The query after the authority, its password parameter among the others.
    url += "?" + parts[2] + (parts[2].empty() ? "" : "&") + "password=" + std::string(kSecret) +
           (parts[3].empty() ? "" : "&" + parts[3]);
  }
  return url;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  shown_texts(input);
  if (const std::optional<std::string> url = url_with_secret(input)) {
    for (const std::string& text : shown_texts(*url)) {
      require(text.find(kSecret) == std::string::npos, "the password is shown", *url, text);
    }
  }
  return 0;
}
