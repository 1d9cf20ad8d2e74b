#include "services_for_store.h"

#include <string>

#include "docket/core/error.h"
#include "providers/registry.h"

namespace docket::examples {
namespace {

// The demo part of the provider named `name`, or nullptr.
const DemoProvider* demo_provider(std::string_view name) {
  for (const DemoProviderEntry& entry : demo_providers()) {
    if (entry.name == name) {
      return entry.provider;
    }
  }
  return nullptr;
}

}  // namespace

std::unique_ptr<OrderServices> services_for_store(std::string_view url) {
  const providers::ProviderRegistration& provider =
      providers::Registry::builtin().provider_for(url, "demo store");
  if (const DemoProvider* demo = demo_provider(provider.name)) {
    return demo->open(url);
  }
  std::string stores;
  for (const DemoProviderEntry& entry : demo_providers()) {
    stores += (stores.empty() ? "" : ", ") + std::string(entry.provider->example_url);
  }
  throw ConfigurationError("demo: the order pipeline's services run on " +
                           (stores.empty() ? std::string("no store of this build") : stores) +
                           ", not on a " + std::string(provider.name) +
                           " store; pass such a store URL");
}

std::optional<std::int64_t> table_rows(InboxStore& store, std::string_view table) {
  const DemoProvider* demo = demo_provider(store.provider_name());
  if (demo == nullptr || demo->table_rows == nullptr) {
    return std::nullopt;
  }
  return demo->table_rows(store, table);
}

}  // namespace docket::examples
