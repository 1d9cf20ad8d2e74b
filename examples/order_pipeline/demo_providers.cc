// The order services of this build's providers: those listed by
// builtin_providers.cmake that define docket_<name>_demo, in its order. The list
// reaches this file as the generated header demo_provider_list.h:
// DOCKET_DEMO_PROVIDERS(X), X(name) each.
#include <vector>

#include "demo_provider_list.h"
#include "services_for_store.h"

#define DOCKET_DECLARE_DEMO_SERVICES(name)       \
  namespace docket::name {                       \
  const examples::DemoProvider& demo_services(); \
  }
DOCKET_DEMO_PROVIDERS(DOCKET_DECLARE_DEMO_SERVICES)
#undef DOCKET_DECLARE_DEMO_SERVICES

namespace docket::examples {

std::span<const DemoProviderEntry> demo_providers() {
#define DOCKET_LIST_DEMO_SERVICES(name) DemoProviderEntry{#name, &docket::name::demo_services()},
  static const std::vector<DemoProviderEntry> entries{
      DOCKET_DEMO_PROVIDERS(DOCKET_LIST_DEMO_SERVICES)};
#undef DOCKET_LIST_DEMO_SERVICES
  return entries;
}

}  // namespace docket::examples
