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
// change; a stale timeout (below) is the one message that saves nothing.
//
// Timeouts (docket/sagas/saga_timeouts.h): a State with a docket::SagaTimeouts member,
// named once with keeps_timeouts_in(&State::timeouts), lets steps schedule messages to
// their own saga at a time (SagaStepContext::schedule_timeout); times_out() registers
// the step that runs when one arrives:
//
//   saga.keeps_timeouts_in(&Fulfilment::timeouts)
//       .times_out<PaymentDue>("payment-due", by_order,
//           [](Fulfilment& s, const PaymentDue&, docket::SagaStepContext& step) {
//             step.send("cancel-order", CancelOrder{s.order});
//             step.complete();
//           });
//
// A timeout's step runs only while it is the saga's pending timeout of its event type
// (see saga_timeouts.h); the saga missing or completed, it is marked processed without
// a step, as a continues() message with IfSagaMissing::kIgnore is. A completing step
// drops every pending timeout. Timeouts a step replaced, cancelled or dropped are
// withdrawn from the outbox (Outbox::cancel) once its unit of work committed, on a best
// effort: one that could not be withdrawn (already claimed by a relay, a store error)
// arrives stale and runs no step.
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
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/json_codec.h"
#include "docket/core/message_type.h"
#include "docket/inbox/handler_registry.h"
#include "docket/sagas/saga_step_runner.h"
#include "docket/sagas/saga_timeouts.h"

namespace docket {

// What a coordinator's steps do with a State's timeouts, untyped (saga_coordinator.cc).
namespace saga_coordinator_internal {

// A timeout that arrived (`envelope`) is due when it is still the pending one of its
// event type: then it is removed from `pending` and true returned.
bool take_due(SagaTimeouts& pending, const Envelope& envelope);

// Applies a step's requests to `pending` (and, for a completing step, drops every
// pending timeout); returns the message ids of the timeouts replaced, cancelled or
// dropped, to withdraw from the outbox.
std::vector<std::string> apply(SagaTimeouts& pending,
                               const std::vector<SagaStepContext::TimeoutRequest>& requests,
                               bool completed);

// Withdraws `message_ids` from `outbox` once the unit of work of `ctx` committed.
void withdraw_after_commit(HandlerContext& ctx, const Outbox* outbox,
                           std::vector<std::string> message_ids);

// The message type a step (State&, const Event&, SagaStepContext&) takes: its second
// parameter, decayed; no `type` for a callable with a template or overloaded call
// operator.
template <class Signature>
struct StepEvent {};
template <class R, class State, class Event, class Context>
struct StepEvent<std::function<R(State, Event, Context)>> {
  using type = std::remove_cvref_t<Event>;
};
template <class F>
using EventOfStep = typename StepEvent<decltype(std::function{std::declval<F&>()})>::type;

}  // namespace saga_coordinator_internal

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
        timeouts_(std::make_shared<SagaTimeouts State::*>(nullptr)),
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

  // Names the State member that keeps the saga's pending timeouts (see above), for
  // every step of the saga, registered before or after. Throws ConfigurationError for a
  // null member, a second call, or a coordinator without an outbox (timeouts are staged
  // there).
  SagaCoordinator& keeps_timeouts_in(SagaTimeouts State::*member) {
    if (member == nullptr || *timeouts_ != nullptr || runner_->outbox() == nullptr) {
      throw ConfigurationError(
          "saga '" + saga_type() + "': keeps_timeouts_in " +
          (member == nullptr       ? std::string("needs a member, e.g. &State::timeouts")
           : *timeouts_ != nullptr ? std::string("was called already; name one member once")
                                   : std::string("needs an outbox to stage timeouts in; pass "
                                                 "the Outbox to the coordinator's constructor")));
    }
    *timeouts_ = member;
    return *this;
  }

  // `event_type` is a timeout of this saga: its step runs when the timeout arrives and is
  // still pending (see above). Throws ConfigurationError before keeps_timeouts_in, and
  // as continues().
  template <class Event, class Codec = JsonCodec<Event>>
  SagaCoordinator& times_out(std::string_view event_type, Correlate<Event> correlate,
                             Step<Event> step, Codec codec = Codec{}) {
    if (*timeouts_ == nullptr) {
      throw ConfigurationError("saga '" + saga_type() + "': timeout '" + std::string(event_type) +
                               "' is registered before keeps_timeouts_in(&State::member) named "
                               "where the saga keeps its timeouts; call that first");
    }
    return add<Event>(event_type, SagaEntry{.starts = false, .if_missing = IfSagaMissing::kIgnore},
                      std::move(correlate), std::move(step), std::move(codec),
                      /*is_timeout=*/true);
  }

  // starts(), continues() and times_out() under the name and codec of the message type
  // the step takes (its second parameter, a NamedMessage: docket/core/message_type.h),
  // so that neither a string nor a template argument is needed (nor, inside a template,
  // `.template`):
  //   saga.starts(by_order, [](Fulfilment& s, const OrderPlaced& e, SagaStepContext& step) {});
  // `correlate` is any callable (const Event&, const HandlerContext&) -> std::string.
  template <class C, class F>
  requires NamedMessage<saga_coordinator_internal::EventOfStep<F>> SagaCoordinator& starts(
      C correlate, F step) {
    using Event = saga_coordinator_internal::EventOfStep<F>;
    return starts<Event, MessageCodec<Event>>(kMessageTypeOf<Event>,
                                              Correlate<Event>(std::move(correlate)),
                                              Step<Event>(std::move(step)));
  }
  template <class C, class F>
  requires NamedMessage<saga_coordinator_internal::EventOfStep<F>> SagaCoordinator& continues(
      C correlate, F step, IfSagaMissing if_missing = IfSagaMissing::kRetry) {
    using Event = saga_coordinator_internal::EventOfStep<F>;
    return continues<Event, MessageCodec<Event>>(kMessageTypeOf<Event>,
                                                 Correlate<Event>(std::move(correlate)),
                                                 Step<Event>(std::move(step)), if_missing);
  }
  template <class C, class F>
  requires NamedMessage<saga_coordinator_internal::EventOfStep<F>> SagaCoordinator& times_out(
      C correlate, F step) {
    using Event = saga_coordinator_internal::EventOfStep<F>;
    return times_out<Event, MessageCodec<Event>>(kMessageTypeOf<Event>,
                                                 Correlate<Event>(std::move(correlate)),
                                                 Step<Event>(std::move(step)));
  }

  const std::string& saga_type() const noexcept { return runner_->saga_type(); }

 private:
  template <class Event, class Codec>
  SagaCoordinator& add(std::string_view event_type, SagaEntry entry, Correlate<Event> correlate,
                       Step<Event> step, Codec codec, bool is_timeout = false) {
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
        [runner = runner_, timeouts = timeouts_, entry, is_timeout,
         correlate = std::move(correlate), step = std::move(step),
         state_codec = codec_](const Event& event, HandlerContext& ctx) {
          runner->run(
              ctx, correlate(event, ctx), entry,
              [&](const std::string* stored,
                  SagaStepContext& context) -> std::optional<std::string> {
                State state = stored == nullptr
                                  ? State{}
                                  : decode(*runner, state_codec, *stored, context.saga());
                if (*timeouts == nullptr) {
                  step(state, event, context);
                  return state_codec.encode(state);
                }
                SagaTimeouts& pending = state.**timeouts;
                if (is_timeout && !saga_coordinator_internal::take_due(pending, ctx.envelope())) {
                  return std::nullopt;  // stale: replaced, cancelled or dropped since
                }
                const SagaTimeouts before = pending;
                context.allow_timeouts();
                step(state, event, context);
                const std::vector<std::string> withdrawn = saga_coordinator_internal::apply(
                    pending, context.timeout_requests(), context.completed());
                std::string encoded = state_codec.encode(state);
                if (pending != before) {
                  check_codec_keeps(*runner, state_codec, encoded, *timeouts, pending,
                                    context.saga());
                }
                saga_coordinator_internal::withdraw_after_commit(ctx, runner->outbox(), withdrawn);
                return encoded;
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

  // The round trip a state whose timeouts changed must survive (see saga_timeouts.h).
  static void check_codec_keeps(const SagaStepRunner& runner, const StateCodec& codec,
                                const std::string& encoded, SagaTimeouts State::*member,
                                const SagaTimeouts& expected, const SagaId& saga) {
    State decoded = decode(runner, codec, encoded, saga);
    if (decoded.*member != expected) {
      throw ConfigurationError(
          "saga '" + runner.saga_type() +
          "': the state codec does not keep the SagaTimeouts member named by "
          "keeps_timeouts_in (a state encoded and decoded again lost its pending timeouts); "
          "write it with the state, e.g. list it in NLOHMANN_DEFINE_TYPE_INTRUSIVE. Nothing "
          "was committed.");
    }
  }

  HandlerRegistry& handlers_;
  std::shared_ptr<const SagaStepRunner> runner_;
  // Where the State keeps its timeouts; null until keeps_timeouts_in. Shared with every
  // registered step, so that it holds for those registered before it was named.
  std::shared_ptr<SagaTimeouts State::*> timeouts_;
  StateCodec codec_;
  std::set<std::string, std::less<>> registered_;
};

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_COORDINATOR_H_
