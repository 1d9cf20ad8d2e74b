#include "docket/transports/transport.h"

#include <optional>

#include "docket/core/tenant.h"

namespace docket {

DispatchOutcome dispatch_message(const InboxDispatcher& dispatcher,
                                 const TransportMessage& message) {
  // The untenanted sentinel is what a store records outside any scope; dispatching
  // without a scope records it again.
  std::optional<TenantScope> scope;
  if (message.tenant != kUntenantedSentinel) {
    scope.emplace(TenantId(message.tenant));
  }
  return dispatcher.dispatch(message.envelope);
}

}  // namespace docket
