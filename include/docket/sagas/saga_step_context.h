// What a saga step receives beside its state and message (docket/sagas/saga_coordinator.h):
// the saga it runs for, the version its state was loaded at, a way to complete the
// saga, a way to send follow-up messages through the outbox inside the same unit of
// work, and the inbox handler's context (tenant, envelope, transaction).
//
//   [](OrderState& s, const PaymentCaptured& e, docket::SagaStepContext& step) {
//     s.paid = true;
//     step.send("ship-order", ShipOrder{s.order_id});   // commits with the new state
//     if (s.shipped) step.complete();
//   }
//
// A staged message commits exactly when the step's new state does (and with the
// message's dedup row): a step that throws, or a save that conflicts, leaves neither.
//
// Thread-safety: valid only during the step, on the dispatching thread.
#ifndef DOCKET_SAGAS_SAGA_STEP_CONTEXT_H_
#define DOCKET_SAGAS_SAGA_STEP_CONTEXT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "docket/core/uuid.h"
#include "docket/inbox/handler_context.h"
#include "docket/inbox/json_codec.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/outbox_message.h"
#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_store.h"

namespace docket {

class SagaStepContext {
 public:
  // `outbox` may be null (the coordinator has none); all must outlive the context.
  SagaStepContext(HandlerContext& handler, const SagaId& saga, std::int64_t loaded_version,
                  const Outbox* outbox) noexcept
      : handler_(handler), saga_(saga), loaded_version_(loaded_version), outbox_(outbox) {}

  // The saga this step runs for: its tenant is the handler's (ctx.tenant()).
  const SagaId& saga() const noexcept { return saga_; }
  // The version the state was loaded at; kNewSaga when this message starts the saga
  // (the state is then a value-initialised State).
  std::int64_t loaded_version() const noexcept { return loaded_version_; }
  bool is_new() const noexcept { return loaded_version_ == kNewSaga; }

  // Completes the saga: the coordinator saves this step's state as SagaStatus::kCompleted.
  // Later messages for the saga are ignored (marked processed, no step runs).
  void complete() noexcept { completed_ = true; }
  bool completed() const noexcept { return completed_; }

  // Stages `message` in the coordinator's outbox inside this unit of work and returns
  // its id (lineage defaults to the message being handled). Throws ConfigurationError
  // when the coordinator was given no outbox, and as Outbox::stage otherwise.
  Uuid stage(const OutboxMessage& message) const;

  // stage() of `event` encoded with `codec` under `event_type`.
  template <class Event, class Codec = JsonCodec<Event>>
  Uuid send(std::string_view event_type, const Event& event, const Codec& codec = Codec{}) const {
    return stage(
        OutboxMessage{.event_type = std::string(event_type), .payload = codec.encode(event)});
  }

  // The inbox handler's context: tenant, envelope, and the unit of work's transaction
  // for the step's own writes (which commit with the saga's state).
  HandlerContext& handler() const noexcept { return handler_; }

 private:
  HandlerContext& handler_;
  const SagaId& saga_;
  std::int64_t loaded_version_;
  const Outbox* outbox_;
  bool completed_ = false;
};

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_STEP_CONTEXT_H_
