#include "providers/kit/url_password.h"

#include <cstddef>

namespace docket::kit {
namespace {

constexpr std::string_view kMask = "***";

// Masks the password of the user info (`user:password@`) in the authority, which runs
// from after "://" to the first '/', '?' or '#'. The user info ends at the authority's
// last '@' (a password may contain a percent-encoded '@' but never a raw one before
// the host). libpq reads further: with no '@' in that authority, it takes the user
// info up to the first '@' before any '/' ("postgresql://u?x:pw@host" has the password
// "pw"), so the user info then ends at the last '@' before the first '/': what libpq
// reads is masked, and masking the masked text changes nothing.
void mask_user_info(std::string& url, std::size_t start) {
  const std::size_t end = url.find_first_of("/?#", start);
  std::string_view authority = std::string_view(url).substr(
      start, end == std::string::npos ? std::string::npos : end - start);
  std::size_t at = authority.rfind('@');
  if (at == std::string_view::npos) {
    authority = std::string_view(url).substr(start, url.find('/', start) - start);
    at = authority.rfind('@');
    if (at == std::string_view::npos) {
      return;
    }
  }
  const std::size_t colon = authority.substr(0, at).find(':');
  if (colon == std::string_view::npos) {
    return;
  }
  url.replace(start + colon + 1, at - colon - 1, kMask);
}

// Masks the value of every `password=` parameter that begins at `at` or after a
// later '&', '?' or '#'. Parameters are split on '&' and, as a reader may also split
// them, on a further '?' or a '#': libpq knows no fragment and reads
// "?a=1#x&password=pw" as the password "pw".
void mask_password_parameters(std::string& url, std::size_t at) {
  constexpr std::string_view kKey = "password=";
  while (at < url.size()) {
    std::size_t next = url.find_first_of("&?#", at);
    if (next == std::string::npos) {
      next = url.size();
    }
    if (std::string_view(url).substr(at, next - at).starts_with(kKey)) {
      const std::size_t value = at + kKey.size();
      url.replace(value, next - value, kMask);
      next = value + kMask.size();
    }
    at = next + 1;
  }
}

}  // namespace

std::string mask_url_passwords(std::string_view url) {
  std::string printable(url);
  if (printable.find("://") == std::string::npos) {
    return printable;
  }
  // The query first: user info read as libpq does may run over the query's '?'. Then
  // the authority found again: a "://" inside a masked value is gone.
  if (const std::size_t query = printable.find('?'); query != std::string::npos) {
    mask_password_parameters(printable, query + 1);
  }
  const std::size_t authority = printable.find("://");
  if (authority != std::string::npos) {
    mask_user_info(printable, authority + 3);
  }
  return printable;
}

std::string mask_parameter_value_passwords(std::string_view value) {
  std::string printable(value);
  // The value's own beginning continues its parameter ("region=us-0"): only what
  // follows a separator inside it can be read as a parameter of its own.
  if (const std::size_t separator = printable.find_first_of("&?#");
      separator != std::string::npos) {
    mask_password_parameters(printable, separator + 1);
  }
  return printable;
}

}  // namespace docket::kit
