// dispatch_batch: many messages in one transaction, one savepoint per message, so the
// fsync of the commit is shared while a failing message is rolled back alone.
#include <exception>
#include <string>

#include "docket/inbox_dispatcher.h"
#include "docket/inbox_errors.h"
#include "docket/message_context.h"
#include "docket/tenant.h"
#include "inbox/dispatch_parts.h"

namespace docket {
namespace {

// Runs one message inside its savepoint; returns its outcome or the error that rolled
// it back. `record` carries the batch's tenant and consumer id and is refilled for each
// message. Errors of the savepoint machinery itself propagate: the batch's transaction
// is then unusable.
std::optional<DispatchOutcome> dispatch_one(UnitOfWork& unit, const HandlerRegistry& handlers,
                                            const Envelope& envelope, std::string_view consumer_id,
                                            const TenantId& tenant, InboxRecord& record,
                                            std::exception_ptr& error) {
  try {
    validate_envelope(envelope);
  } catch (const Error&) {
    error = std::current_exception();
    return std::nullopt;
  }
  inbox::fill_record(record, envelope);
  MessageContextScope scope(inbox::make_context(envelope, consumer_id));
  unit.begin_savepoint();
  try {
    if (!unit.try_record(record)) {
      unit.release_savepoint();  // nothing was staged
      return DispatchOutcome::kSkippedDuplicate;
    }
    HandlerContext ctx(envelope, consumer_id, tenant, unit.handler_transaction());
    handlers.run(envelope, ctx);
    unit.flush_deferred_writes();
    unit.release_savepoint();
    return DispatchOutcome::kProcessed;
  } catch (const UniqueViolationError&) {
    unit.rollback_savepoint();
    // Visible now means a concurrent delivery committed it: a duplicate, not a failure.
    if (unit.is_recorded(record.key)) {
      return DispatchOutcome::kSkippedDuplicate;
    }
    error = std::current_exception();
  } catch (...) {
    unit.rollback_savepoint();
    error = std::current_exception();
  }
  return std::nullopt;
}

}  // namespace

std::vector<BatchItemResult> InboxDispatcher::dispatch_batch(
    std::span<const Envelope> envelopes, AfterBatchFailure after_failure) const {
  // Every message writes at least its dedup record: a batch past the store's commit
  // limit is refused whole, before anything is written.
  const std::size_t limit = store_.capabilities().max_writes_per_commit;
  if (limit != 0 && envelopes.size() > limit) {
    refuse_capability("the " + std::string(store_.provider_name()) + " inbox",
                      "join writes beyond " + std::to_string(limit) +
                          " per commit (this batch has " + std::to_string(envelopes.size()) +
                          " messages)",
                      "dispatch smaller batches or use the claim inbox");
  }
  const TenantId tenant = TenantScope::current_or_untenanted();
  InboxRecord record;
  record.key = DedupKey{tenant.value(), options_.consumer_id(), {}};
  // A unique violation at commit (an optimistic store where a concurrent delivery
  // committed one of these messages first) rolls the whole batch back; it is then run
  // again and the committed message is seen as a duplicate. Every retry follows a
  // commit by someone else of a key this batch writes, so retries are finite.
  for (;;) {
    std::vector<BatchItemResult> results;
    results.reserve(envelopes.size());
    auto unit = store_.begin();
    for (const Envelope& envelope : envelopes) {
      BatchItemResult& result = results.emplace_back();
      result.message_id = envelope.message_id;
      result.outcome = dispatch_one(*unit, handlers_, envelope, options_.consumer_id(), tenant,
                                    record, result.error);
      if (!result.ok() && after_failure == AfterBatchFailure::kStop) {
        break;
      }
    }
    try {
      unit->commit();
      return results;
    } catch (const UniqueViolationError&) {
      continue;
    }
  }
}

}  // namespace docket
