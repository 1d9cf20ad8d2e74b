#include "providers/registry.h"

#include <algorithm>
#include <utility>

#include "core/url_credentials.h"
#include "docket/core/error.h"

namespace docket::providers {
namespace {

// The text before the first ':', or nullopt when there is none ("memory" is no URL).
std::optional<std::string_view> scheme_of(std::string_view url) {
  const std::size_t colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0) {
    return std::nullopt;
  }
  return url.substr(0, colon);
}

std::string joined(const std::vector<std::string_view>& parts, std::string_view separator) {
  std::string text;
  for (const std::string_view part : parts) {
    if (!text.empty()) {
      text += separator;
    }
    text += part;
  }
  return text;
}

}  // namespace

Registry::Registry(std::vector<const ProviderRegistration*> providers,
                   std::vector<LeftOutProvider> left_out)
    : providers_(std::move(providers)), left_out_(std::move(left_out)) {
  std::vector<std::string_view> names;
  std::vector<std::string_view> schemes;
  for (const ProviderRegistration* provider : providers_) {
    if (provider->name.empty() || provider->schemes.empty()) {
      throw ConfigurationError("a provider registration without a name or a URL scheme ('" +
                               std::string(provider->name) +
                               "'); give it both in its <name>_registration.cc");
    }
    if (std::ranges::find(names, provider->name) != names.end()) {
      throw ConfigurationError("two providers are registered as '" + std::string(provider->name) +
                               "'; list each once in src/providers/builtin_providers.cmake");
    }
    names.push_back(provider->name);
    for (const std::string_view scheme : provider->schemes) {
      if (std::ranges::find(schemes, scheme) != schemes.end()) {
        throw ConfigurationError("two providers claim the URL scheme '" + std::string(scheme) +
                                 ":' (the second is '" + std::string(provider->name) +
                                 "'); give each provider schemes of its own");
      }
      schemes.push_back(scheme);
    }
  }
}

const ProviderRegistration* Registry::find(std::string_view url) const noexcept {
  const std::optional<std::string_view> scheme = scheme_of(url);
  if (!scheme) {
    return nullptr;
  }
  for (const ProviderRegistration* provider : providers_) {
    if (std::ranges::find(provider->schemes, *scheme) != provider->schemes.end()) {
      return provider;
    }
  }
  return nullptr;
}

std::string Registry::url_forms() const {
  std::vector<std::string_view> forms;
  for (const ProviderRegistration* provider : providers_) {
    forms.push_back(provider->url_forms);
  }
  return joined(forms, ", ");
}

const ProviderRegistration& Registry::provider_for(std::string_view url,
                                                   std::string_view what) const {
  const ProviderRegistration* provider = find(url);
  std::optional<std::string> problem;
  if (provider == nullptr) {
    problem = scheme_of(url) ? "has a scheme no provider of this build has"
                             : "has no scheme (the text before ':')";
  } else if (provider->url_problem != nullptr) {
    problem = provider->url_problem(url);
  }
  if (!problem) {
    return *provider;
  }
  std::string message = std::string(what) + " URL '" + printable(url) + "' " + *problem +
                        "; use one of: " + url_forms();
  for (const LeftOutProvider& left_out : left_out_) {
    message += " (" + std::string(left_out.name) + " is left out of this build: configure with -D" +
               std::string(left_out.option) + "=ON)";
  }
  throw ConfigurationError(message);
}

void Registry::refuse_missing_store(const ProviderRegistration& provider, std::string_view url,
                                    std::string_view what,
                                    bool (*offers)(const ProviderRegistration&)) const {
  std::vector<std::string_view> others;
  for (const ProviderRegistration* other : providers_) {
    if (offers(*other)) {
      others.push_back(other->url_forms);
    }
  }
  std::string message = std::string(what) + " URL '" + printable(url) + "': the " +
                        std::string(provider.name) + " provider offers no " + std::string(what);
  message += others.empty() ? "; no provider of this build offers one yet"
                            : "; open it on a provider that does: " + joined(others, ", ");
  throw ConfigurationError(message);
}

std::string Registry::printable(std::string_view url) const {
  const ProviderRegistration* provider = find(url);
  if (provider != nullptr && provider->printable_url != nullptr) {
    return provider->printable_url(url);
  }
  // A URL of a provider whose URLs carry no credentials may still have one written
  // into it by mistake (sqlite://?password=...), and a scheme this build cannot open
  // (a postgresql:// URL in a build without PostgreSQL, say) may carry any credential.
  // User info alone is masked too: sqlite: and memory: read none, and a scheme this
  // build does not know may read it as a token.
  return core::mask_url_credentials(url, core::UserInfoAlone::kCredential);
}

}  // namespace docket::providers
