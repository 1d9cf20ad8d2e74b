// The untyped engine behind SagaCoordinator (docket/sagas/saga_coordinator.h): runs one step
// of one saga type inside an inbox handler's unit of work. Usable on its own by code
// that brings its own typing.
//
// run(), with the handler's context and the saga id the message correlates to:
//   1. load the saga in the unit of work's transaction (on PostgreSQL the row stays
//      locked until the unit of work ends, so concurrent steps of one saga queue);
//   2. absent: a message that starts the saga runs its step on a new state; any other
//      follows its IfSagaMissing; completed: the message is ignored (no step runs, the
//      dispatcher marks it processed), so a finished saga never runs again;
//   3. run the typed step (decode state, apply the message, encode state);
//   4. save in the same transaction at exactly the loaded version, completed when the
//      step said so. A conflict throws SagaConflictError.
// The saga's new state therefore commits with the message's dedup row, the outbox
// messages the step staged and the handler's other writes, or not at all.
//
// Invariant: saga type valid, and the saga store (and the outbox's store, when given)
// working in one transaction type (checked at construction); immutable afterwards.
// Thread-safety: run() may be called from many threads at once. The store and the
// outbox must outlive the runner.
#ifndef DOCKET_SAGAS_SAGA_STEP_RUNNER_H_
#define DOCKET_SAGAS_SAGA_STEP_RUNNER_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/transaction_type.h"
#include "docket/inbox/handler_context.h"
#include "docket/outbox/outbox.h"
#include "docket/sagas/saga_errors.h"
#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_step_context.h"
#include "docket/sagas/saga_store.h"

namespace docket {

// What a message that does not start its saga does when the saga does not exist.
enum class IfSagaMissing {
  // Throw SagaNotFoundError: the message is not marked processed and is redelivered,
  // for a message that may overtake the one that starts the saga.
  kRetry,
  // Run no step and let the message be marked processed, for a message that may
  // arrive for a saga that never started or was purged, and is then meaningless.
  kIgnore,
};

// How one registered message enters its saga.
struct SagaEntry {
  bool starts = false;  // a new saga starts here; an existing active one continues
  IfSagaMissing if_missing = IfSagaMissing::kRetry;  // when !starts
};

class SagaStepRunner {
 public:
  // The typed part of one step: turns the stored state (null for a new saga) into the
  // state, applies the message to it and returns the encoded new state; or nullopt when
  // the message turns out to need no step (a stale timeout, saga_timeouts.h): the saga
  // is then left unchanged and the message marked processed.
  using TypedStep =
      std::function<std::optional<std::string>(const std::string* stored, SagaStepContext& step)>;

  // `outbox` may be null (steps then cannot stage). Throws ConfigurationError when
  // `saga_type` is empty, not valid UTF-8 or longer than kMaxSagaTypeBytes, when the
  // store cannot work inside a handler's transaction, or when the outbox's store gives
  // another transaction type than the saga store works in (naming both).
  SagaStepRunner(std::string_view saga_type, SagaStore& store, const Outbox* outbox);

  const std::string& saga_type() const noexcept { return saga_type_; }

  // The transaction type run() needs ctx's transaction to be: the saga store's. The
  // coordinator records it in its HandlerRegistry, so that an InboxDispatcher over an
  // inbox store of another type refuses at construction.
  const TransactionType& transaction_type() const noexcept { return transaction_type_; }

  // The outbox steps stage in; null when the coordinator has none.
  const Outbox* outbox() const noexcept { return outbox_; }

  // See above. `saga_id` is what the message correlated to; an unusable one (empty,
  // not UTF-8, too long) throws InvalidInputError naming the message. The typed
  // step's exceptions propagate unchanged.
  void run(HandlerContext& ctx, std::string_view saga_id, SagaEntry entry,
           const TypedStep& step) const;

  // The error for a stored state of `saga` that the state codec refused for `reason`.
  SagaStateError state_error(const SagaId& saga, std::string_view reason) const;

 private:
  static std::string checked_saga_type(std::string_view saga_type);
  SagaId saga_of(const HandlerContext& ctx, std::string_view saga_id) const;

  std::string saga_type_;
  SagaStore& store_;
  const Outbox* outbox_;
  TransactionType transaction_type_;
};

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_STEP_RUNNER_H_
