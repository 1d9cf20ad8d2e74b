// What this build's providers lend `docket chaos`: those listed by
// builtin_providers.cmake that define docket_<name>_chaos, in its order. The list
// reaches this file as the generated header chaos_provider_list.h:
// DOCKET_CHAOS_PROVIDERS(X), X(name) each.
#include <vector>

#include "chaos_provider.h"
#include "chaos_provider_list.h"

#define DOCKET_DECLARE_CHAOS_PROVIDER(name)    \
  namespace docket::name {                     \
  const tool::ChaosProvider& chaos_provider(); \
  }
DOCKET_CHAOS_PROVIDERS(DOCKET_DECLARE_CHAOS_PROVIDER)
#undef DOCKET_DECLARE_CHAOS_PROVIDER

namespace docket::tool {

std::span<const ChaosProviderEntry> chaos_providers() {
#define DOCKET_LIST_CHAOS_PROVIDER(name) ChaosProviderEntry{#name, &docket::name::chaos_provider()},
  static const std::vector<ChaosProviderEntry> entries{
      DOCKET_CHAOS_PROVIDERS(DOCKET_LIST_CHAOS_PROVIDER)};
#undef DOCKET_LIST_CHAOS_PROVIDER
  return entries;
}

}  // namespace docket::tool
