// dispatch_batch: many messages in one transaction, one savepoint per message, so the
// fsync of the commit is shared while a failing message is rolled back alone; split
// into as many transactions as the store's commit limits need.
#include <exception>
#include <iterator>
#include <string>
#include <vector>

#include "core/observing.h"
#include "docket/core/error.h"
#include "docket/core/message_context.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/spi/inbox_unit.h"
#include "inbox/dispatch_parts.h"
#include "inbox/dispatch_segments.h"
#include "inbox/store_step.h"

namespace docket {
namespace {

// Runs one message inside its savepoint; sets its outcome or the error that rolled it
// back. `record` carries the batch's tenant and consumer id and is refilled for each
// message. `alone`: no other message is staged in the unit, so a commit-limit refusal is
// the message's own failure rather than a reason to split. Errors of the savepoint
// machinery itself propagate: the batch's transaction is then unusable.
inbox::Staged dispatch_one(spi::InboxUnit& unit, const HandlerRegistry& handlers,
                           const Envelope& envelope, std::string_view consumer_id,
                           const TenantId& tenant, InboxRecord& record, bool alone,
                           BatchItemResult& result, AfterCommitActions& after_commit,
                           UnhandledTypes unhandled) {
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
    if (!inbox::store_step("to record the delivery", [&] { return unit.try_record(record); })) {
      unit.release_savepoint();  // nothing was staged
      result.outcome = DispatchOutcome::kSkippedDuplicate;
      return inbox::Staged::kDone;
    }
    if (unhandled == UnhandledTypes::kMarkProcessed && !handlers.handles(envelope.event_type)) {
      unit.release_savepoint();  // the dedup row alone
      result.outcome = DispatchOutcome::kUnhandled;
      return inbox::Staged::kDone;
    }
    HandlerContext ctx(envelope, consumer_id, tenant, unit.handler_transaction(), &after_commit);
    handlers.run(envelope, ctx);
    unit.flush_deferred_writes();
    unit.release_savepoint();
    result.outcome = DispatchOutcome::kProcessed;
    return inbox::Staged::kDone;
  } catch (...) {
    after_commit.clear();  // the message's effects are gone: so is what follows them
    return inbox::roll_back_message(unit, record.key, alone, result);
  }
}

// What a commit that threw means for the unit's messages. Call from a handler of the
// exception.
enum class CommitFailure {
  kRunAgain,    // another unit's commit came first: the unit runs again and sees it
  kOneMessage,  // one message's write failed where only the commit could tell
  kUnit,        // the transaction itself failed: the batch fails
};

CommitFailure what_commit_failure_means(InboxStore& store,
                                        const std::vector<BatchItemResult>& results,
                                        std::string_view consumer_id) {
  try {
    throw;
  } catch (const DuplicateDeliveryError&) {
    return CommitFailure::kRunAgain;  // the store saw a dedup record taken
  } catch (const UniqueViolationError&) {
    // A concurrent delivery's dedup record, or a handler's insert of a key taken before:
    // one read of the processed messages' keys tells them apart.
    std::vector<std::string> processed;
    for (const BatchItemResult& result : results) {
      if (inbox::wrote_dedup_record(result)) {
        processed.push_back(result.message_id);
      }
    }
    return store.filter_unprocessed(consumer_id, processed).size() < processed.size()
               ? CommitFailure::kRunAgain
               : CommitFailure::kOneMessage;
  } catch (const ConcurrencyConflictError&) {
    return CommitFailure::kRunAgain;  // a stream or saga the unit read moved on
  } catch (const ConditionFailedError&) {
    return CommitFailure::kOneMessage;
  } catch (...) {
    return CommitFailure::kUnit;
  }
}

// Ends a batched message's span with its result.
void end_batched_span(detail::MessageSpan& span, const BatchItemResult& result) {
  if (!span.open()) {
    return;
  }
  if (result.outcome) {
    span.end(inbox::observed_outcome(*result.outcome));
    return;
  }
  try {
    std::rethrow_exception(result.error);
  } catch (...) {
    span.end(MessageOutcome::kFailed, detail::current_error_text());
  }
}

}  // namespace

namespace inbox {

UnitRun run_savepoints(spi::InboxUnit& unit, const HandlerRegistry& handlers,
                       std::span<const Envelope> envelopes, std::string_view consumer_id,
                       const TenantId& tenant, AfterBatchFailure after_failure,
                       UnhandledTypes unhandled) {
  UnitRun run;
  InboxRecord record;
  record.key = DedupKey{tenant.value(), std::string(consumer_id), {}};
  bool staged = false;  // a message of this unit wrote something
  for (const Envelope& envelope : envelopes) {
    BatchItemResult result;
    AfterCommitActions actions;
    if (dispatch_one(unit, handlers, envelope, consumer_id, tenant, record, !staged, result,
                     actions, unhandled) == Staged::kSplit) {
      break;  // it starts the next unit
    }
    if (!actions.empty()) {
      run.after_commit.emplace_back(run.results.size(), std::move(actions));
    }
    staged = staged || wrote_dedup_record(result);
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
  // One span per valid message, begun now and ended with its result below; a message
  // without one (kStop, or the batch threw) ends abandoned with its span.
  std::vector<detail::MessageSpan> spans;
  if (Observer* observer = options_.observer().get()) {
    spans.reserve(envelopes.size());
    for (const Envelope& envelope : envelopes) {
      bool valid = true;
      try {
        validate_envelope(envelope);
      } catch (const Error&) {
        valid = false;
      }
      spans.emplace_back(valid ? detail::MessageSpan(observer, inbox::observed_start(
                                                                   envelope, options_.consumer_id(),
                                                                   tenant, /*batched=*/true))
                               : detail::MessageSpan());
    }
  }
  const bool stop = after_failure == AfterBatchFailure::kStop;
  std::vector<BatchItemResult> results;
  results.reserve(envelopes.size());
  std::size_t next = 0;  // the first message of the next unit of work
  bool stopped = false;
  // Messages before this index run in units of one: their unit's commit failed on one
  // message's write, which a unit of one attributes to its message.
  std::size_t one_by_one_until = 0;
  while (next < envelopes.size() && !stopped) {
    // A commit that another unit's commit defeated (a concurrent delivery of one of
    // these messages, a stream or saga a handler read) rolls the unit back; it then runs
    // again and sees what was committed. Every rerun follows a commit by someone else,
    // so reruns are finite.
    for (;;) {
      auto unit = inbox::store_step("to begin a unit of work",
                                    [&] { return spi::InboxStoreAccess::begin(store_); });
      const auto rest =
          next < one_by_one_until ? envelopes.subspan(next, 1) : envelopes.subspan(next);
      const bool segmented = unit->defer_segments(stop);
      inbox::UnitRun run =
          segmented ? inbox::run_segments(*unit, handlers_, rest, options_.consumer_id(), tenant,
                                          after_failure, options_.unhandled())
                    : inbox::run_savepoints(*unit, handlers_, rest, options_.consumer_id(), tenant,
                                            after_failure, options_.unhandled());
      try {
        unit->commit();
        if (segmented) {
          run.settle(unit->take_segment_failures(), stop);
        }
      } catch (...) {
        switch (what_commit_failure_means(store_, run.results, options_.consumer_id())) {
          case CommitFailure::kRunAgain:
            continue;
          case CommitFailure::kUnit:
            // The transaction failed: an outage of the store is InboxStoreError, as
            // for dispatch().
            inbox::store_step("to commit the unit of work", [] { throw; });
            throw;
          case CommitFailure::kOneMessage:
            if (run.results.size() > 1) {
              one_by_one_until = next + run.results.size();
              continue;
            }
            if (run.results.empty()) {
              throw;
            }
            run.results.back().outcome.reset();
            run.results.back().error = std::current_exception();
            run.stopped = stop;
            break;
        }
      }
      unit.reset();  // its connection free again: an action may use the store
      run.run_after_commit();
      next += run.results.size();
      stopped = run.stopped;
      std::move(run.results.begin(), run.results.end(), std::back_inserter(results));
      break;
    }
  }
  for (std::size_t i = 0; i < spans.size() && i < results.size(); ++i) {
    end_batched_span(spans[i], results[i]);
  }
  return results;
}

}  // namespace docket
