// dispatch_batch: many messages in one transaction, one savepoint per message, so the
// fsync of the commit is shared while a failing message is rolled back alone; split
// into as many transactions as the store's commit limits need.
#include <exception>
#include <iterator>
#include <string>

#include "docket/inbox_dispatcher.h"
#include "docket/inbox_errors.h"
#include "docket/message_context.h"
#include "docket/tenant.h"
#include "inbox/dispatch_parts.h"
#include "inbox/dispatch_segments.h"

namespace docket {
namespace {

// Runs one message inside its savepoint; sets its outcome or the error that rolled it
// back. `record` carries the batch's tenant and consumer id and is refilled for each
// message. `alone`: no other message is staged in the unit, so a commit-limit refusal is
// the message's own failure rather than a reason to split. Errors of the savepoint
// machinery itself propagate: the batch's transaction is then unusable.
inbox::Staged dispatch_one(UnitOfWork& unit, const HandlerRegistry& handlers,
                           const Envelope& envelope, std::string_view consumer_id,
                           const TenantId& tenant, InboxRecord& record, bool alone,
                           BatchItemResult& result) {
  result.message_id = envelope.message_id;
  try {
    validate_envelope(envelope);
  } catch (const Error&) {
    result.error = std::current_exception();
    return inbox::Staged::kDone;
  }
  inbox::fill_record(record, envelope);
  MessageContextScope scope(inbox::make_context(envelope, consumer_id));
  unit.begin_savepoint();
  try {
    if (!unit.try_record(record)) {
      unit.release_savepoint();  // nothing was staged
      result.outcome = DispatchOutcome::kSkippedDuplicate;
      return inbox::Staged::kDone;
    }
    HandlerContext ctx(envelope, consumer_id, tenant, unit.handler_transaction());
    handlers.run(envelope, ctx);
    unit.flush_deferred_writes();
    unit.release_savepoint();
    result.outcome = DispatchOutcome::kProcessed;
    return inbox::Staged::kDone;
  } catch (...) {
    return inbox::roll_back_message(unit, record.key, alone, result);
  }
}

}  // namespace

namespace inbox {

UnitRun run_savepoints(UnitOfWork& unit, const HandlerRegistry& handlers,
                       std::span<const Envelope> envelopes, std::string_view consumer_id,
                       const TenantId& tenant, AfterBatchFailure after_failure) {
  UnitRun run;
  InboxRecord record;
  record.key = DedupKey{tenant.value(), std::string(consumer_id), {}};
  bool staged = false;  // a message of this unit wrote something
  for (const Envelope& envelope : envelopes) {
    BatchItemResult result;
    if (dispatch_one(unit, handlers, envelope, consumer_id, tenant, record, !staged, result) ==
        Staged::kSplit) {
      break;  // it starts the next unit
    }
    staged = staged || result.outcome == DispatchOutcome::kProcessed;
    run.results.push_back(std::move(result));
    if (!run.results.back().ok() && after_failure == AfterBatchFailure::kStop) {
      run.stopped = true;
      break;
    }
  }
  return run;
}

}  // namespace inbox

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
  const bool stop = after_failure == AfterBatchFailure::kStop;
  std::vector<BatchItemResult> results;
  results.reserve(envelopes.size());
  std::size_t next = 0;  // the first message of the next unit of work
  bool stopped = false;
  while (next < envelopes.size() && !stopped) {
    // A unique violation at commit (an optimistic store where a concurrent delivery
    // committed one of these messages first) rolls the unit back; it is then run again
    // and the committed message is seen as a duplicate. Every retry follows a commit by
    // someone else of a key this unit writes, so retries are finite.
    for (;;) {
      auto unit = store_.begin();
      const auto rest = envelopes.subspan(next);
      const bool segmented = unit->defer_segments(stop);
      inbox::UnitRun run =
          segmented ? inbox::run_segments(*unit, handlers_, rest, options_.consumer_id(), tenant,
                                          after_failure)
                    : inbox::run_savepoints(*unit, handlers_, rest, options_.consumer_id(), tenant,
                                            after_failure);
      try {
        unit->commit();
      } catch (const UniqueViolationError&) {
        continue;
      }
      if (segmented) {
        run.settle(unit->take_segment_failures(), stop);
      }
      next += run.results.size();
      stopped = run.stopped;
      std::move(run.results.begin(), run.results.end(), std::back_inserter(results));
      break;
    }
  }
  return results;
}

}  // namespace docket
