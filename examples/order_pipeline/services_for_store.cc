#include "services_for_store.h"

#include <string>

#include "providers/registry.h"
#include "sql_services.h"

namespace docket::examples {

std::unique_ptr<OrderServices> services_for_store(std::string_view url) {
  const providers::ProviderRegistration& provider =
      providers::Registry::builtin().provider_for(url, "demo store");
  std::string others;
  for (const DemoProviderEntry& entry : demo_providers()) {
    if (entry.name == provider.name) {
      return entry.provider->open(url);
    }
    others += (others.empty() ? "" : ", ") + std::string(entry.provider->example_url);
  }
  return open_sql_services(url, std::move(others));
}

}  // namespace docket::examples
