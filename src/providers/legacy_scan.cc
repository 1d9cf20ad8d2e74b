#include "docket/stores/legacy_scan.h"

#include <string>

#include "providers/registry.h"

namespace docket {

LegacyScan scan_legacy_keys(std::string_view url, std::size_t max_examples) {
  const providers::ProviderRegistration& provider =
      providers::Registry::builtin().provider_for(url, "legacy-key scan");
  if (provider.legacy_scan == nullptr) {
    return LegacyScan{.provider = std::string(provider.name), .places = {}};
  }
  return provider.legacy_scan(url, max_examples);
}

}  // namespace docket
