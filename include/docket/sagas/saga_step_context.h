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
// Timeouts (docket/sagas/saga_timeouts.h), for a coordinator that keeps them
// (SagaCoordinator::keeps_timeouts_in):
//
//   step.schedule_timeout("payment-due", PaymentDue{s.order}, clock.now() + 30min);
//   step.cancel_timeout("payment-due");   // or let a completing step drop them all
//
// A timeout is staged like a sent message (it exists exactly when the step's save
// commits), with deliver_at = due; a due time already past delivers it at once, one
// beyond kMaxDeliverAt is refused (InvalidInputError, nothing committed).
//
// Thread-safety: valid only during the step, on the dispatching thread.
#ifndef DOCKET_SAGAS_SAGA_STEP_CONTEXT_H_
#define DOCKET_SAGAS_SAGA_STEP_CONTEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/json_codec.h"
#include "docket/core/message_type.h"
#include "docket/core/uuid.h"
#include "docket/inbox/handler_context.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/outbox_message.h"
#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_store.h"
#include "docket/sagas/saga_timeouts.h"

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

  // Schedules a timeout of event type `message.event_type` for `due`: stages `message`
  // (its deliver_at set to `due`) and records it as the saga's pending timeout of that
  // event type, replacing an earlier one. Returns the staged message's id. Throws
  // ConfigurationError when the coordinator keeps no timeouts or has no outbox, and as
  // Outbox::stage otherwise.
  Uuid schedule_timeout(OutboxMessage message, Timestamp due);

  // schedule_timeout() of `event` encoded with `codec` under `event_type`.
  template <class Event, class Codec = JsonCodec<Event>>
  Uuid schedule_timeout(std::string_view event_type, const Event& event, Timestamp due,
                        const Codec& codec = Codec{}) {
    return schedule_timeout(
        OutboxMessage{.event_type = std::string(event_type), .payload = codec.encode(event)}, due);
  }

  // Drops the saga's pending timeout of `event_type`, if any: it will not run a step.
  // Throws ConfigurationError when the coordinator keeps no timeouts.
  void cancel_timeout(std::string_view event_type);

  // What the step asked of its timeouts, in order: a scheduled one, or (nullopt) a
  // cancelled event type. The coordinator applies them to the state.
  struct TimeoutRequest {
    std::string event_type;
    std::optional<SagaTimeout> scheduled;
  };
  const std::vector<TimeoutRequest>& timeout_requests() const noexcept { return timeouts_; }

  // Set by the coordinator before the step runs when it keeps the saga's timeouts.
  void allow_timeouts() noexcept { timeouts_allowed_ = true; }

  // send() and schedule_timeout() under the name and codec Event declares
  // (docket/core/message_type.h): step.send(ShipOrder{s.order}).
  template <NamedMessage Event>
  Uuid send(const Event& event) const {
    return send(kMessageTypeOf<Event>, event, MessageCodec<Event>{});
  }
  template <NamedMessage Event>
  Uuid schedule_timeout(const Event& event, Timestamp due) {
    return schedule_timeout(kMessageTypeOf<Event>, event, due, MessageCodec<Event>{});
  }

  // The inbox handler's context: tenant, envelope, and the unit of work's transaction
  // for the step's own writes (which commit with the saga's state).
  HandlerContext& handler() const noexcept { return handler_; }

 private:
  HandlerContext& handler_;
  const SagaId& saga_;
  std::int64_t loaded_version_;
  void require_timeouts(std::string_view event_type, std::string_view doing) const;

  const Outbox* outbox_;
  bool completed_ = false;
  bool timeouts_allowed_ = false;
  std::vector<TimeoutRequest> timeouts_;
};

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_STEP_CONTEXT_H_
