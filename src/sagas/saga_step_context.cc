#include "docket/sagas/saga_step_context.h"

#include <string>

#include "docket/core/error.h"

namespace docket {

Uuid SagaStepContext::stage(const OutboxMessage& message) const {
  if (outbox_ == nullptr) {
    throw ConfigurationError("a step of " + saga_.describe() + " sends '" + message.event_type +
                             "', but its SagaCoordinator has no outbox; pass the Outbox (on the "
                             "inbox store's database) to the coordinator's constructor");
  }
  return outbox_->stage(handler_.transaction(), message);
}

}  // namespace docket
