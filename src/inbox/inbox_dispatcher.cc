#include "docket/inbox/inbox_dispatcher.h"

#include <string>
#include <utility>

#include "core/observing.h"
#include "docket/core/error.h"
#include "docket/core/message_context.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/spi/inbox_unit.h"
#include "inbox/dispatch_parts.h"
#include "inbox/store_step.h"

namespace docket {

std::string_view to_string(DispatchOutcome outcome) noexcept {
  switch (outcome) {
    case DispatchOutcome::kProcessed:
      return "processed";
    case DispatchOutcome::kSkippedDuplicate:
      return "skipped_duplicate";
    case DispatchOutcome::kUnhandled:
      return "unhandled";
  }
  return "unknown";
}

namespace {

// Throws ConfigurationError when the handlers are written against another transaction
// type than the one `store` gives them: refused at start-up, not at the first message.
void check_transaction_type(const InboxStore& store, const InboxOptions& options,
                            const HandlerRegistry& handlers) {
  if (const auto& sql = handlers.requires_sql(); sql && !store.transaction_type().speaks_sql) {
    throw ConfigurationError(
        "inbox dispatcher '" + options.consumer_id() + "': " + *sql +
        " takes docket::SqlTransaction (portable SQL), but the " +
        std::string(store.provider_name()) + " inbox store gives handlers " +
        std::string(store.transaction_type().name) +
        ", which does not implement it; open the inbox store on SQLite or PostgreSQL, or write "
        "the handler against " +
        std::string(store.transaction_type().name));
  }
  const auto& required = handlers.required_transaction();
  if (!required) {
    return;  // transaction-agnostic handlers: each checks what it asks for
  }
  const TransactionType provided = store.transaction_type();
  if (required->type == provided) {
    return;
  }
  throw ConfigurationError(
      "inbox dispatcher '" + options.consumer_id() + "': " + required->required_by + " takes " +
      std::string(required->type.name) + ", but the " + std::string(store.provider_name()) +
      " inbox store gives handlers " + std::string(provided.name) +
      "; open the inbox store on the provider the handlers are written for, or write them "
      "against " +
      std::string(provided.name) +
      " (code serving several providers takes HandlerContext& "
      "and calls ctx.transaction<T>()). A handler whose writes cannot commit with the "
      "inbox's dedup record (they live in another database, or on Cosmos DB in another "
      "partition or container) runs on the claim inbox instead "
      "(docket/inbox/claim_runner.h)");
}

}  // namespace

InboxDispatcher::InboxDispatcher(InboxStore& store, InboxOptions options, HandlerRegistry handlers)
    : store_(store), options_(std::move(options)), handlers_(std::move(handlers)) {
  check_transaction_type(store_, options_, handlers_);
}

DispatchOutcome InboxDispatcher::dispatch(const Envelope& envelope) const {
  validate_envelope(envelope);
  const TenantId tenant = TenantScope::current_or_untenanted();
  Observer* observer = options_.observer().get();
  if (observer == nullptr) {
    return dispatch_valid(envelope, tenant);
  }
  detail::MessageSpan span(
      observer, inbox::observed_start(envelope, options_.consumer_id(), tenant, /*batched=*/false));
  try {
    const DispatchOutcome outcome = dispatch_valid(envelope, tenant);
    span.end(inbox::observed_outcome(outcome));
    return outcome;
  } catch (...) {
    span.end(MessageOutcome::kFailed, detail::current_error_text());
    throw;
  }
}

DispatchOutcome InboxDispatcher::dispatch_valid(const Envelope& envelope,
                                                const TenantId& tenant) const {
  const InboxRecord record = inbox::make_record(envelope, options_.consumer_id(), tenant);
  MessageContextScope scope(inbox::make_context(envelope, options_.consumer_id()));
  AfterCommitActions after_commit;
  try {
    auto unit = inbox::store_step("to begin a unit of work",
                                  [&] { return spi::InboxStoreAccess::begin(store_); });
    const bool recorded = inbox::store_step("to record the delivery", [&] {
      const bool at_commit =
          options_.dedup() == DedupCheck::kAtCommit && unit->record_at_commit(record);
      return at_commit || unit->try_record(record);
    });
    if (!recorded) {
      return DispatchOutcome::kSkippedDuplicate;  // the unit rolls back: nothing staged
    }
    if (options_.unhandled() == UnhandledTypes::kMarkProcessed &&
        !handlers_.handles(envelope.event_type)) {
      inbox::store_step("to commit the unit of work", [&] { unit->commit(); });  // dedup alone
      return DispatchOutcome::kUnhandled;
    }
    HandlerContext ctx(envelope, options_.consumer_id(), tenant, unit->handler_transaction(),
                       &after_commit);
    handlers_.run(envelope, ctx);
    inbox::store_step("to commit the unit of work", [&] { unit->commit(); });
  } catch (const DuplicateDeliveryError&) {
    return DispatchOutcome::kSkippedDuplicate;  // the store saw its own dedup record
  } catch (const UniqueViolationError&) {
    // The unit has rolled back. If a concurrent delivery committed the dedup row (or an
    // earlier one did, and the row was written at commit), this delivery is a duplicate
    // whose staged effects went with the rollback; otherwise the violation was the
    // handler's own and propagates unchanged.
    if (store_.is_recorded(record.key)) {
      return DispatchOutcome::kSkippedDuplicate;
    }
    throw;
  }
  // Outside the try: an action's exception is its own, not the unit's.
  inbox::run_after_commit(after_commit);
  return DispatchOutcome::kProcessed;
}

}  // namespace docket
