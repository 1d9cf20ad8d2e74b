// What this build's broker transports lend `docket chaos`: those that define
// docket_transport_<name>_chaos. The list reaches this file as the generated header
// chaos_transport_list.h: DOCKET_CHAOS_TRANSPORTS(X), X(name) each.
#include <vector>

#include "chaos_transport.h"
#include "chaos_transport_list.h"

#define DOCKET_DECLARE_CHAOS_TRANSPORT(name)     \
  namespace docket::name {                       \
  const tool::ChaosTransport& chaos_transport(); \
  }
DOCKET_CHAOS_TRANSPORTS(DOCKET_DECLARE_CHAOS_TRANSPORT)
#undef DOCKET_DECLARE_CHAOS_TRANSPORT

namespace docket::tool {

std::span<const ChaosTransportEntry> chaos_transports() {
#define DOCKET_LIST_CHAOS_TRANSPORT(name) \
  ChaosTransportEntry{#name, &docket::name::chaos_transport()},
  static const std::vector<ChaosTransportEntry> entries{
      DOCKET_CHAOS_TRANSPORTS(DOCKET_LIST_CHAOS_TRANSPORT)};
#undef DOCKET_LIST_CHAOS_TRANSPORT
  return entries;
}

}  // namespace docket::tool
