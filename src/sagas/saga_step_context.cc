#include "docket/sagas/saga_step_context.h"

#include <string>
#include <utility>

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

void SagaStepContext::require_timeouts(std::string_view event_type, std::string_view doing) const {
  if (!timeouts_allowed_) {
    throw ConfigurationError("a step of " + saga_.describe() + " " + std::string(doing) +
                             " timeout '" + std::string(event_type) +
                             "', but its SagaCoordinator keeps no timeouts; give the State a "
                             "docket::SagaTimeouts member and name it with "
                             "keeps_timeouts_in(&State::member)");
  }
}

Uuid SagaStepContext::schedule_timeout(OutboxMessage message, Timestamp due) {
  require_timeouts(message.event_type, "schedules");
  message.deliver_at = due;
  const Uuid id = stage(message);
  timeouts_.push_back(
      TimeoutRequest{.event_type = std::move(message.event_type),
                     .scheduled = SagaTimeout{.message_id = id.to_string(), .due = due}});
  return id;
}

void SagaStepContext::cancel_timeout(std::string_view event_type) {
  require_timeouts(event_type, "cancels");
  timeouts_.push_back(
      TimeoutRequest{.event_type = std::string(event_type), .scheduled = std::nullopt});
}

}  // namespace docket
