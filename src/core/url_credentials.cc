#include "core/url_credentials.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>

namespace docket::core {
namespace {

constexpr std::string_view kMask = "***";

// Words that name a credential wherever they stand in a parameter's name
// (aws_secret_access_key, X-Amz-Security-Token, client_secret, api-key).
constexpr std::array<std::string_view, 17> kCredentialWords = {
    "password", "passwd",      "pwd",       "pass",      "secret", "token",
    "key",      "apikey",      "accesskey", "signature", "sig",    "credential",
    "jwt",      "credentials", "seed",      "nkey",      "auth"};
// Whole names written as one word that hold a credential.
constexpr std::array<std::string_view, 8> kCredentialNames = {
    "sslpassword", "accesstoken",  "sessiontoken",    "securitytoken",
    "authtoken",   "clientsecret", "secretaccesskey", "authorization"};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
           return lower(x) == lower(y);
         });
}

bool is_one_of(std::string_view word, std::span<const std::string_view> words) {
  return std::any_of(words.begin(), words.end(),
                     [&](std::string_view known) { return equal_ignoring_case(word, known); });
}

// Masks the user info's credential in the authority, which runs from `start` (after
// "://") to the first '/', '?' or '#': the password after its first ':', or, where
// `alone` says the scheme reads it so, a user info without ':' whole.
//
// Each masked text is appended to `found`.
void mask_user_info(std::string& url, std::size_t start, UserInfoAlone alone,
                    std::vector<std::string>& found) {
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
  if (colon != std::string_view::npos) {
    found.emplace_back(url, start + colon + 1, at - colon - 1);
    url.replace(start + colon + 1, at - colon - 1, kMask);
  } else if (alone == UserInfoAlone::kCredential && at > 0) {
    found.emplace_back(url, start, at);
    url.replace(start, at, kMask);
  }
}

// Masks the value of every credential parameter that begins at `at` or after a later
// '&', '?' or '#', appending each masked value to `found`.
void mask_credential_parameters(std::string& url, std::size_t at, std::vector<std::string>& found) {
  while (at < url.size()) {
    std::size_t next = url.find_first_of("&?#", at);
    if (next == std::string::npos) {
      next = url.size();
    }
    const std::string_view parameter = std::string_view(url).substr(at, next - at);
    if (const std::size_t equals = parameter.find('=');
        equals != std::string_view::npos && credential_name(parameter.substr(0, equals))) {
      const std::size_t value = at + equals + 1;
      found.emplace_back(url, value, next - value);
      url.replace(value, next - value, kMask);
      next = value + kMask.size();
    }
    at = next + 1;
  }
}

// `url` masked, each masked text appended to `found`.
std::string masked(std::string_view url, UserInfoAlone alone, std::vector<std::string>& found) {
  std::string printable(url);
  if (printable.find("://") == std::string::npos) {
    return printable;
  }
  // The query first: user info read as libpq does may run over the query's '?'. Then
  // the authority found again: a "://" inside a masked value is gone.
  if (const std::size_t query = printable.find('?'); query != std::string::npos) {
    mask_credential_parameters(printable, query + 1, found);
  }
  const std::size_t authority = printable.find("://");
  if (authority != std::string::npos) {
    mask_user_info(printable, authority + 3, alone, found);
  }
  return printable;
}

}  // namespace

bool credential_name(std::string_view name) {
  if (is_one_of(name, kCredentialNames)) {
    return true;
  }
  while (!name.empty()) {
    const std::size_t end = name.find_first_of("_-.");
    if (is_one_of(name.substr(0, end), kCredentialWords)) {
      return true;
    }
    name = end == std::string_view::npos ? std::string_view() : name.substr(end + 1);
  }
  return false;
}

std::string mask_url_credentials(std::string_view url, UserInfoAlone alone) {
  std::vector<std::string> found;
  return masked(url, alone, found);
}

std::vector<std::string> url_credentials(std::string_view url, UserInfoAlone alone) {
  std::vector<std::string> found;
  masked(url, alone, found);
  std::erase_if(found, [](const std::string& credential) { return credential.empty(); });
  return found;
}

std::string mask_parameter_value_credentials(std::string_view value) {
  std::string printable(value);
  // The value's own beginning continues its parameter ("region=us-0"): only what
  // follows a separator inside it can be read as a parameter of its own.
  if (const std::size_t separator = printable.find_first_of("&?#");
      separator != std::string::npos) {
    std::vector<std::string> found;
    mask_credential_parameters(printable, separator + 1, found);
  }
  return printable;
}

}  // namespace docket::core
