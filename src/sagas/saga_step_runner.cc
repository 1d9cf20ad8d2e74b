// One saga step inside an inbox handler's unit of work: load, policy, step, save.
#include "docket/sagas/saga_step_runner.h"

#include <optional>
#include <string>

#include "docket/core/error.h"
#include "eventsourcing/name_rules.h"

namespace docket {
namespace {

// "message 'm-1' (event type 'payment-captured')", for errors.
std::string describe_message(const HandlerContext& ctx) {
  return "message '" + ctx.envelope().message_id + "' (event type '" + ctx.envelope().event_type +
         "')";
}

// The transaction type a step of `saga_type` runs in: the saga store's, which the
// outbox's store (when given) must share.
TransactionType step_transaction_type(std::string_view saga_type, const SagaStore& store,
                                      const Outbox* outbox) {
  const std::string who = "saga coordinator '" + std::string(saga_type) + "': ";
  const std::optional<TransactionType> type = store.transaction_type();
  if (!type) {
    throw ConfigurationError(
        who + "the " + std::string(store.provider_name()) +
        " saga store cannot work inside a handler's transaction, so a step's state could not "
        "commit with the message's dedup row; open the saga store on the inbox store's "
        "database with a provider whose saga store joins it (one whose "
        "capabilities().joins_handler_writes holds)");
  }
  if (outbox != nullptr && outbox->store().transaction_type() != *type) {
    const OutboxStore& outbox_store = outbox->store();
    throw ConfigurationError(
        who + "the " + std::string(store.provider_name()) + " saga store works in " +
        std::string(type->name) + ", but the outbox's " +
        std::string(outbox_store.provider_name()) + " store stages in " +
        std::string(outbox_store.transaction_type().name) +
        "; a step's state and the messages it sends commit in one unit of work: open both on "
        "the inbox store's database");
  }
  return *type;
}

}  // namespace

SagaStepRunner::SagaStepRunner(std::string_view saga_type, SagaStore& store, const Outbox* outbox)
    : saga_type_(checked_saga_type(saga_type)),
      store_(store),
      outbox_(outbox),
      transaction_type_(step_transaction_type(saga_type, store, outbox)) {}

std::string SagaStepRunner::checked_saga_type(std::string_view saga_type) {
  try {
    eventsourcing::require_name("saga type", saga_type, kMaxSagaTypeBytes,
                                "Name the saga's type, e.g. \"order-fulfilment\".");
  } catch (const InvalidInputError& e) {
    throw ConfigurationError(std::string("saga coordinator: ") + e.what());
  }
  return std::string(saga_type);
}

void SagaStepRunner::run(HandlerContext& ctx, std::string_view saga_id, SagaEntry entry,
                         const TypedStep& step) const {
  const SagaId saga = saga_of(ctx, saga_id);
  HandlerTransaction& tx = ctx.transaction();
  const std::optional<SagaRecord> record = store_.load(tx, saga);
  if (!record && !entry.starts) {
    if (entry.if_missing == IfSagaMissing::kIgnore) {
      return;  // marked processed by the dispatcher; nothing else happens
    }
    throw SagaNotFoundError(
        saga, ctx.envelope().event_type, ctx.envelope().message_id,
        describe_message(ctx) + " continues " + saga.describe() +
            ", which does not exist (yet). Nothing was committed and the message was not "
            "marked processed: let the transport redeliver it once the message that starts "
            "the saga has been handled, or register it with IfSagaMissing::kIgnore if it may "
            "come without one.");
  }
  if (record && record->status == SagaStatus::kCompleted) {
    return;  // a completed saga is final: the message is marked processed, no step runs
  }
  const std::int64_t loaded = record ? record->version : kNewSaga;
  SagaStepContext context(ctx, saga, loaded, outbox_);
  const std::optional<std::string> state = step(record ? &record->state : nullptr, context);
  if (!state) {
    return;  // no step was due (a stale timeout): the saga stays as it is
  }
  const SagaSaveResult saved = store_.save(
      tx, saga, loaded, *state, context.completed() ? SagaStatus::kCompleted : SagaStatus::kActive);
  if (saved.is_conflict()) {
    const VersionConflict& conflict = saved.conflict();
    throw SagaConflictError(saga, conflict.expected_version, conflict.actual_version,
                            describe_message(ctx) + ": " + conflict.message() +
                                " The unit of work was rolled back (no saga state, outbox "
                                "message or dedup row committed); dispatch the message again "
                                "and its step runs on the saga's new state.");
  }
}

SagaStateError SagaStepRunner::state_error(const SagaId& saga, std::string_view reason) const {
  return SagaStateError(saga,
                        "the stored state of " + saga.describe() +
                            " does not decode with the saga's state codec: " + std::string(reason) +
                            ". Nothing was committed; deploy a codec that reads the "
                            "stored format (the message will be redelivered).");
}

SagaId SagaStepRunner::saga_of(const HandlerContext& ctx, std::string_view saga_id) const {
  try {
    return SagaId(ctx.tenant(), saga_type_, saga_id);
  } catch (const InvalidInputError& e) {
    throw InvalidInputError("saga '" + saga_type_ + "': " + describe_message(ctx) +
                            " correlates to an unusable saga id: " + e.what() +
                            " Fix the correlation function; the message was not marked "
                            "processed.");
  }
}

}  // namespace docket
