// The saga coordinator: a long-running process (an order's fulfilment, a transfer)
// driven by messages through the transactional inbox. Each message correlates to one
// saga instance; its step changes the saga's typed state and may send messages; the
// new state, the sent messages and the message's dedup row commit in one unit of work.
//
//   struct Fulfilment { std::string order; bool paid = false, shipped = false; };
//   docket::HandlerRegistry handlers;
//   docket::SagaCoordinator<Fulfilment> saga(handlers, "order-fulfilment", *sagas, &outbox);
//   saga.starts<OrderPlaced>("order-placed",
//           [](const OrderPlaced& e, const docket::HandlerContext&) { return e.order; },
//           [](Fulfilment& s, const OrderPlaced& e, docket::SagaStepContext& step) {
//             s.order = e.order;
//             step.send("capture-payment", CapturePayment{e.order, e.cents});
//           })
//       .continues<PaymentCaptured>("payment-captured", by_order,
//           [](Fulfilment& s, const PaymentCaptured&, docket::SagaStepContext& step) {
//             s.paid = true;
//             if (s.shipped) step.complete();
//           });
//   docket::InboxDispatcher inbox(*inbox_store, docket::InboxOptions("fulfilment"),
//                                 std::move(handlers));
//
// Per message, inside the inbox's unit of work (SagaStepRunner does it): correlate
// (saga id = correlate(event, ctx), tenant = ctx.tenant()), load the saga in the unit
// of work's transaction, run the step, save at exactly the loaded version. Policies:
//  - starts(): creates the saga when absent (the step sees step.is_new() and a
//    value-initialised State); an active saga is continued. Several message types may
//    start one saga (whichever arrives first creates it).
//  - continues(): needs the saga; when absent, IfSagaMissing::kRetry (the default)
//    throws SagaNotFoundError (not marked processed, redelivered) and kIgnore lets the
//    message be marked processed without a step.
//  - a completed saga (step.complete()) ignores every later message: no step runs, the
//    message is marked processed. A completed saga is never re-run, also by a message
//    that starts it; once purged (SagaStore::purge_completed) its id is free again, so
//    purge only after its late messages can no longer arrive.
//  - another step of the saga saved first: SagaConflictError, nothing committed; the
//    redelivery runs the step on the new state.
// A step's exception propagates unchanged and rolls everything back. Every processed
// message saves the saga (its version advances by one), even when the state did not
// change.
//
// Start-up checks: the saga store, the outbox's store and the dispatcher's inbox store
// must give one transaction type; a mismatch is a ConfigurationError naming both, from
// this constructor or from the InboxDispatcher's, never at the first message.
//
// Invariants: a step's effects (new state and version, staged outbox messages, the
// handler's writes through ctx's transaction) commit exactly with the message's dedup
// row; a duplicate delivery is skipped by the inbox before any step runs; a step runs
// on the state of exactly the version it is saved over. The saga store, the outbox and
// the inbox store must share one database (the store's join rules in saga_store.h).
//
// Thread-safety: register from one thread, before the registry is handed to an
// InboxDispatcher; steps then run on many threads at once (for different messages)
// and must allow that. The coordinator object itself may be destroyed after
// registration (the handlers share what they need); the store and the outbox must
// outlive the dispatcher.
#ifndef DOCKET_SAGAS_SAGA_COORDINATOR_H_
#define DOCKET_SAGAS_SAGA_COORDINATOR_H_

#include <exception>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "docket/core/error.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/json_codec.h"
#include "docket/sagas/saga_step_runner.h"

namespace docket {

template <class State, class StateCodec = JsonCodec<State>>
class SagaCoordinator {
  static_assert(std::is_default_constructible_v<State>,
                "a saga starts from a value-initialised State: give it a default constructor");

 public:
  // The saga id a message belongs to (its tenant is ctx.tenant()).
  template <class Event>
  using Correlate = std::function<std::string(const Event&, const HandlerContext&)>;
  template <class Event>
  using Step = std::function<void(State&, const Event&, SagaStepContext&)>;

  // Registers into `handlers`, and records there the saga store's transaction type
  // (HandlerRegistry::require_transaction), so that an InboxDispatcher over an inbox store
  // of another type refuses at construction. `outbox` may be null when no step sends.
  // Throws ConfigurationError for an unusable saga type, a saga store that cannot work
  // inside a handler's transaction, an outbox whose store gives another transaction type
  // than the saga store, or handlers already written against another type.
  SagaCoordinator(HandlerRegistry& handlers, std::string_view saga_type, SagaStore& store,
                  const Outbox* outbox = nullptr, StateCodec codec = StateCodec{})
      : handlers_(handlers),
        runner_(std::make_shared<const SagaStepRunner>(saga_type, store, outbox)),
        codec_(std::move(codec)) {
    handlers_.require_transaction(runner_->transaction_type(),
                                  "saga '" + runner_->saga_type() + "' (its " +
                                      std::string(store.provider_name()) + " saga store)");
  }

  // `event_type` may start the saga (see above). Throws ConfigurationError for an
  // empty function, an event type already registered for this saga, or as
  // HandlerRegistry::on.
  template <class Event, class Codec = JsonCodec<Event>>
  SagaCoordinator& starts(std::string_view event_type, Correlate<Event> correlate, Step<Event> step,
                          Codec codec = Codec{}) {
    return add<Event>(event_type, SagaEntry{.starts = true}, std::move(correlate), std::move(step),
                      std::move(codec));
  }

  // `event_type` continues an existing saga; `if_missing` says what happens without one.
  template <class Event, class Codec = JsonCodec<Event>>
  SagaCoordinator& continues(std::string_view event_type, Correlate<Event> correlate,
                             Step<Event> step, IfSagaMissing if_missing = IfSagaMissing::kRetry,
                             Codec codec = Codec{}) {
    return add<Event>(event_type, SagaEntry{.starts = false, .if_missing = if_missing},
                      std::move(correlate), std::move(step), std::move(codec));
  }

  const std::string& saga_type() const noexcept { return runner_->saga_type(); }

 private:
  template <class Event, class Codec>
  SagaCoordinator& add(std::string_view event_type, SagaEntry entry, Correlate<Event> correlate,
                       Step<Event> step, Codec codec) {
    if (!correlate || !step) {
      throw ConfigurationError("saga '" + saga_type() + "': empty " +
                               (correlate ? "step" : "correlation") + " for event type '" +
                               std::string(event_type) + "'; pass a callable");
    }
    if (registered_.contains(event_type)) {
      throw ConfigurationError("saga '" + saga_type() + "': event type '" +
                               std::string(event_type) +
                               "' is already registered; one step per message type and saga");
    }
    handlers_.on<Event, Codec>(
        event_type,
        [runner = runner_, entry, correlate = std::move(correlate), step = std::move(step),
         state_codec = codec_](const Event& event, HandlerContext& ctx) {
          runner->run(ctx, correlate(event, ctx), entry,
                      [&](const std::string* stored, SagaStepContext& context) {
                        State state = stored == nullptr
                                          ? State{}
                                          : decode(*runner, state_codec, *stored, context.saga());
                        step(state, event, context);
                        return state_codec.encode(state);
                      });
        },
        std::move(codec));
    registered_.emplace(event_type);
    return *this;
  }

  static State decode(const SagaStepRunner& runner, const StateCodec& codec,
                      const std::string& stored, const SagaId& saga) {
    try {
      return codec.decode(stored);
    } catch (const std::exception& e) {
      throw runner.state_error(saga, e.what());
    }
  }

  HandlerRegistry& handlers_;
  std::shared_ptr<const SagaStepRunner> runner_;
  StateCodec codec_;
  std::set<std::string, std::less<>> registered_;
};

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_COORDINATOR_H_
