// dispatch_batch on a unit of work that defers segments: one pre-check read for the
// unit's messages, then every message's savepoint, dedup write and handler writes held
// back and sent together, with failures found in the flights settled per message.
#include <exception>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "docket/core/message_context.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/spi/inbox_unit.h"
#include "inbox/dispatch_parts.h"
#include "inbox/dispatch_segments.h"
#include "inbox/store_step.h"

namespace docket::inbox {
namespace {

// Stages one message, already validated and not recorded at the pre-check, in a segment
// of its own. `repeat`: an earlier message of this unit has the same id, so whether the
// key is free is asked (try_record) rather than assumed; the answer then accounts for
// the earlier message's segment, whether it commits or not. `alone`: as
// run_savepoints's: no other message of the unit wrote anything.
Staged stage(spi::InboxUnit& unit, const HandlerRegistry& handlers, const Envelope& envelope,
             std::string_view consumer_id, const TenantId& tenant, const InboxRecord& record,
             bool repeat, bool alone, BatchItemResult& result, AfterCommitActions& after_commit,
             UnhandledTypes unhandled) {
  MessageContextScope scope(make_context(envelope, consumer_id));
  unit.begin_savepoint();
  try {
    // A store that defers segments holds the dedup write back (record_at_commit); one
    // that cannot is asked.
    const bool recorded = store_step("to record the delivery", [&] {
      return (!repeat && unit.record_at_commit(record)) || unit.try_record(record);
    });
    if (!recorded) {
      unit.release_savepoint();
      result.outcome = DispatchOutcome::kSkippedDuplicate;
      return Staged::kDone;
    }
    if (unhandled == UnhandledTypes::kMarkProcessed && !handlers.handles(envelope.event_type)) {
      unit.release_savepoint();  // the dedup row alone
      result.outcome = DispatchOutcome::kUnhandled;
      return Staged::kDone;
    }
    HandlerContext ctx(envelope, consumer_id, tenant, unit.handler_transaction(), &after_commit);
    handlers.run(envelope, ctx);
    unit.release_savepoint();
    result.outcome = DispatchOutcome::kProcessed;
    return Staged::kDone;
  } catch (...) {
    after_commit.clear();  // the message's effects are gone: so is what follows them
    return roll_back_message(unit, record.key, alone, result);
  }
}

}  // namespace

Staged roll_back_message(spi::InboxUnit& unit, const DedupKey& key, bool alone,
                         BatchItemResult& result) {
  unit.rollback_savepoint();
  try {
    throw;
  } catch (const UniqueViolationError&) {
    if (unit.is_recorded(key)) {
      result.outcome = DispatchOutcome::kSkippedDuplicate;
      return Staged::kDone;
    }
  } catch (const CommitLimitError&) {
    if (!alone) {
      return Staged::kSplit;
    }
  } catch (...) {
  }
  // Still inside the caller's handler: the exception that ended the message.
  result.error = std::current_exception();
  return Staged::kDone;
}

bool UnitRun::settle(std::vector<spi::SegmentFailure> failures, bool stop) {
  for (spi::SegmentFailure& failure : failures) {
    // A segment rolled back to start the next unit has no result here.
    if (failure.segment >= result_of_segment.size() ||
        result_of_segment[failure.segment] >= results.size()) {
      continue;
    }
    const std::size_t index = result_of_segment[failure.segment];
    BatchItemResult& result = results[index];
    if (failure.duplicate) {
      result.outcome = DispatchOutcome::kSkippedDuplicate;
      result.error = nullptr;
      continue;
    }
    result.outcome.reset();
    result.error = std::move(failure.error);
    for (const Repeat& repeat : repeats) {
      if (repeat.original == index && repeat.result < results.size()) {
        results[repeat.result].outcome.reset();
        results[repeat.result].error = result.error;
      }
    }
    if (stop) {
      // The store sent nothing after the failed segment: the later messages are
      // undispatched, as if the loop had stopped there.
      results.resize(index + 1);
      stopped = true;
      return true;
    }
  }
  return false;
}

void UnitRun::run_after_commit() {
  for (auto& [index, actions] : after_commit) {
    if (index >= results.size() || results[index].outcome != DispatchOutcome::kProcessed) {
      continue;  // not committed after all (settled as a failure or a duplicate)
    }
    try {
      inbox::run_after_commit(actions);
    } catch (...) {
      results[index].outcome.reset();
      results[index].error = std::current_exception();
    }
  }
  after_commit.clear();
}

UnitRun run_segments(spi::InboxUnit& unit, const HandlerRegistry& handlers,
                     std::span<const Envelope> envelopes, std::string_view consumer_id,
                     const TenantId& tenant, AfterBatchFailure after_failure,
                     UnhandledTypes unhandled) {
  const bool stop = after_failure == AfterBatchFailure::kStop;
  // Validation first, so that the pre-check reads only well-formed ids.
  std::vector<std::exception_ptr> invalid(envelopes.size());
  std::vector<std::string> ids;
  ids.reserve(envelopes.size());
  for (std::size_t i = 0; i < envelopes.size(); ++i) {
    try {
      validate_envelope(envelopes[i]);
      ids.push_back(envelopes[i].message_id);
    } catch (const Error&) {
      invalid[i] = std::current_exception();
    }
  }
  const std::vector<bool> recorded =
      ids.empty() ? std::vector<bool>{} : unit.recorded_among(tenant.value(), consumer_id, ids);

  UnitRun run;
  run.results.reserve(envelopes.size());
  InboxRecord record;
  record.key = DedupKey{tenant.value(), std::string(consumer_id), {}};
  std::unordered_set<std::string_view> staged_ids;  // ids this unit wrote a dedup row for
  // The first message of each id whose segment stands so far, by its index in results.
  std::unordered_map<std::string_view, std::size_t> standing;
  bool staged = false;      // a message of this unit wrote something
  std::size_t checked = 0;  // the pre-check's answers used
  for (std::size_t i = 0; i < envelopes.size(); ++i) {
    const Envelope& envelope = envelopes[i];
    BatchItemResult result;
    result.message_id = envelope.message_id;
    if (invalid[i]) {
      result.error = invalid[i];
    } else if (recorded[checked++]) {
      result.outcome = DispatchOutcome::kSkippedDuplicate;
    } else if (const auto original = standing.find(envelope.message_id);
               original != standing.end() && wrote_dedup_record(run.results[original->second])) {
      // Its dedup write is the earlier message's, held back with it: a duplicate unless
      // that segment fails, which settle() then passes on.
      result.outcome = DispatchOutcome::kSkippedDuplicate;
      run.repeats.push_back({run.results.size(), original->second});
    } else {
      fill_record(record, envelope);
      // A repeat of a message whose segment failed asks whether the key is free.
      const bool repeat = !staged_ids.insert(envelope.message_id).second;
      run.result_of_segment.push_back(run.results.size());
      AfterCommitActions actions;
      if (stage(unit, handlers, envelope, consumer_id, tenant, record, repeat, !staged, result,
                actions, unhandled) == Staged::kSplit) {
        break;
      }
      if (!actions.empty()) {
        run.after_commit.emplace_back(run.results.size(), std::move(actions));
      }
      if (wrote_dedup_record(result)) {
        staged = true;
        standing.insert_or_assign(envelope.message_id, run.results.size());
      }
    }
    run.results.push_back(std::move(result));
    // A handler's read sends what is held back, and may find an earlier segment failed.
    if (run.settle(unit.take_segment_failures(), stop)) {
      break;
    }
    if (!run.results.back().ok() && stop) {
      run.stopped = true;
      break;
    }
  }
  return run;
}

}  // namespace docket::inbox
