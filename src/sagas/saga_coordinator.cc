// What SagaCoordinator's steps do with a State's timeouts (docket/sagas/saga_timeouts.h).
#include "docket/sagas/saga_coordinator.h"

#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"

namespace docket::saga_coordinator_internal {

bool take_due(SagaTimeouts& pending, const Envelope& envelope) {
  const auto it = pending.pending.find(envelope.event_type);
  if (it == pending.pending.end() || it->second.message_id != envelope.message_id) {
    return false;
  }
  pending.pending.erase(it);
  return true;
}

std::vector<std::string> apply(SagaTimeouts& pending,
                               const std::vector<SagaStepContext::TimeoutRequest>& requests,
                               bool completed) {
  std::vector<std::string> withdrawn;
  for (const SagaStepContext::TimeoutRequest& request : requests) {
    const auto it = pending.pending.find(request.event_type);
    if (it != pending.pending.end()) {
      withdrawn.push_back(std::move(it->second.message_id));
      pending.pending.erase(it);
    }
    if (request.scheduled) {
      pending.pending.emplace(request.event_type, *request.scheduled);
    }
  }
  if (completed) {
    // A completed saga runs no step again: what it waited for will never matter.
    for (auto& [event_type, timeout] : pending.pending) {
      withdrawn.push_back(std::move(timeout.message_id));
    }
    pending.pending.clear();
  }
  return withdrawn;
}

void withdraw_after_commit(HandlerContext& ctx, const Outbox* outbox,
                           std::vector<std::string> message_ids) {
  if (message_ids.empty() || outbox == nullptr) {
    return;
  }
  ctx.after_commit([outbox, ids = std::move(message_ids)] {
    for (const std::string& id : ids) {
      try {
        outbox->cancel(id);
      } catch (const Error&) {
        // Best effort by design (saga_coordinator.h): a timeout left in the outbox
        // arrives stale and runs no step, so the committed message stays processed.
      }
    }
  });
}

}  // namespace docket::saga_coordinator_internal
