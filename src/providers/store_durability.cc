#include "docket/stores/store_durability.h"

#include "providers/registry.h"

namespace docket {

std::optional<std::string> store_durability(std::string_view url) {
  const providers::ProviderRegistration& provider =
      providers::Registry::builtin().provider_for(url, "store");
  if (provider.durability == nullptr) {
    return std::nullopt;
  }
  return provider.durability(url);
}

}  // namespace docket
