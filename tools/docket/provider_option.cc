#include "provider_option.h"

#include "docket/core/error.h"
#include "usage_error.h"

namespace docket::tool {

std::string provider_names() {
  std::string names;
  for (const keys::Provider provider : keys::kAllProviders) {
    if (!names.empty()) {
      names += ' ';
    }
    names += keys::provider_name(provider);
  }
  return names;
}

const CLI::Validator& known_provider() {
  static const CLI::Validator validator(
      [](std::string& value) -> std::string {
        if (keys::parse_provider(value)) {
          return {};
        }
        return "unknown provider '" + value + "'; valid providers: " + provider_names();
      },
      "PROVIDER");
  return validator;
}

CLI::Option* add_provider_option(CLI::App& command, std::string& name,
                                 const std::string& supported) {
  return command.add_option("--provider", name, "Storage provider: " + supported)
      ->required()
      ->check(known_provider());
}

keys::Provider provider_named(const std::string& name) {
  if (const auto provider = keys::parse_provider(name)) {
    return *provider;
  }
  // Unreachable once the option's validator has run; kept so a caller that skips it
  // still gets a clear refusal rather than undefined behaviour.
  throw UsageError("unknown provider '" + name + "'; valid providers: " + provider_names());
}

}  // namespace docket::tool
