// How dispatch_batch runs the messages of one unit of work: one savepoint per message,
// each sent as it comes (run_savepoints), or, where the unit defers segments
// (spi::InboxUnit::defer_segments), each message's savepoint, dedup write and handler writes
// held back and sent with the others' in as few round trips as the handlers' reads allow
// (run_segments).
//
// Thread-safety: one call per unit of work, on the unit's thread.
#ifndef DOCKET_INBOX_DISPATCH_SEGMENTS_H_
#define DOCKET_INBOX_DISPATCH_SEGMENTS_H_

#include <cstddef>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/tenant.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_envelope.h"
#include "docket/inbox/inbox_store.h"
#include "docket/spi/inbox_unit.h"

namespace docket::inbox {

// What became of one message staged in a unit of work.
enum class Staged {
  kDone,   // its result is set: processed (on a segmented unit, so far: a flight may
           // still fail it), skipped or failed alone
  kSplit,  // its writes would take the unit past the store's commit limits: rolled back,
           // to run again in a unit of its own
};

// Call from a handler of the exception that ended a message inside its savepoint: rolls
// the savepoint back and sets what the exception means for the message. A unique
// violation on a key now recorded is a concurrent delivery's commit: a duplicate, not a
// failure. A commit-limit refusal splits the unit unless the message is `alone` (no
// other message of the unit wrote anything), where it is the message's own failure.
// Anything else is the message's error.
Staged roll_back_message(spi::InboxUnit& unit, const DedupKey& key, bool alone,
                         BatchItemResult& result);

// What one unit of work made of the envelopes it was given.
struct UnitRun {
  // One result per envelope from the first on, in order. Fewer than the envelopes when
  // the unit stopped (kStop: the failed message's result is the last) or when the next
  // message's writes would take it past the store's commit limits (it starts the next
  // unit).
  std::vector<BatchItemResult> results;
  bool stopped = false;
  // Segmented units: the index in `results` of each segment's message.
  std::vector<std::size_t> result_of_segment;
  // Segmented units: a message skipped as a repeat of an earlier message of the unit
  // (same id) whose segment stands so far. Its outcome follows that segment's: a
  // duplicate if the segment commits or turns out a duplicate, the segment's error if
  // it fails (the repeat is then delivered again, and runs).
  struct Repeat {
    std::size_t result = 0;    // the repeat's index in `results`
    std::size_t original = 0;  // the earlier message's index in `results`
  };
  std::vector<Repeat> repeats;
  // The after-commit actions of the messages whose handlers gave any (handler_context.h),
  // by the message's index in `results`.
  std::vector<std::pair<std::size_t, AfterCommitActions>> after_commit;

  // Once the unit committed: runs the actions of every message that ended processed.
  // A message one of whose actions threw ends with that error instead (it is committed:
  // its redelivery is skipped as a duplicate).
  void run_after_commit();

  // Applies failures found when segments were sent: a duplicate becomes
  // kSkippedDuplicate, a failure that message's error (and its repeats'); with `stop`,
  // the results end at the first failure. Returns whether the unit stopped.
  bool settle(std::vector<spi::SegmentFailure> failures, bool stop);
};

// The messages that ran and the outcome of each; the unit is left to be committed.
// Errors of the savepoint machinery itself propagate: the unit is then unusable.
UnitRun run_savepoints(spi::InboxUnit& unit, const HandlerRegistry& handlers,
                       std::span<const Envelope> envelopes, std::string_view consumer_id,
                       const TenantId& tenant, AfterBatchFailure after_failure,
                       UnhandledTypes unhandled);

// As run_savepoints, on a unit whose defer_segments(...) returned true. Known duplicates
// (one pre-check read for the whole unit) and repeats of a message the unit staged are
// skipped without running their handlers and without a read; the others' dedup writes
// need no answer. Call settle() with the failures the commit found.
UnitRun run_segments(spi::InboxUnit& unit, const HandlerRegistry& handlers,
                     std::span<const Envelope> envelopes, std::string_view consumer_id,
                     const TenantId& tenant, AfterBatchFailure after_failure,
                     UnhandledTypes unhandled);

}  // namespace docket::inbox

#endif  // DOCKET_INBOX_DISPATCH_SEGMENTS_H_
