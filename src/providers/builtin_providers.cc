// This build's registry: the providers builtin_providers.cmake lists and builds, in
// its order. The list reaches this file as the generated header
// builtin_provider_list.h:
//   DOCKET_BUILTIN_PROVIDERS(X)   X(name) per provider built
//   DOCKET_LEFT_OUT_PROVIDERS(X)  X(name, option) per provider switched off
#include "providers/builtin_provider_list.h"
#include "providers/registry.h"

#define DOCKET_DECLARE_REGISTRATION(name)                \
  namespace docket::name {                               \
  const providers::ProviderRegistration& registration(); \
  }
DOCKET_BUILTIN_PROVIDERS(DOCKET_DECLARE_REGISTRATION)
#undef DOCKET_DECLARE_REGISTRATION

namespace docket::providers {

const Registry& Registry::builtin() {
#define DOCKET_LIST_REGISTRATION(name) &docket::name::registration(),
#define DOCKET_LIST_LEFT_OUT(name, option) LeftOutProvider{#name, option},
  static const Registry registry({DOCKET_BUILTIN_PROVIDERS(DOCKET_LIST_REGISTRATION)},
                                 {DOCKET_LEFT_OUT_PROVIDERS(DOCKET_LIST_LEFT_OUT)});
#undef DOCKET_LIST_LEFT_OUT
#undef DOCKET_LIST_REGISTRATION
  return registry;
}

}  // namespace docket::providers
