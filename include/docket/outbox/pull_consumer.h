// A pull consumer: reads the outbox table directly as a feed (no transport) and
// dispatches each row through an inbox, resuming from a checkpoint.
//
// One poll():
//   1. read the checkpoint C (a sequence, in the inbox store's checkpoint store under
//      the consumer id and the ambient tenant; 0 the first time);
//   2. read the feed from C - overlap (the overlap window re-read behind the
//      checkpoint) onwards: at most overlap + batch_size rows;
//   3. pass the ids through filter_unprocessed (per tenant) and dispatch those rows,
//      each under its own tenant, in sequence order;
//   4. advance the checkpoint over the positions now known processed, by this rule:
//        it moves from C upwards through every position that is processed, and stops
//        at the first missing position (a gap: a sequence number assigned but not
//        visible, whose transaction may still commit, or was rolled back) unless that
//        gap has been seen for at least gap_timeout, and at the first row that failed.
//      It never passes a gap younger than gap_timeout, so a row committed late (after
//      rows with higher sequences became visible) is read and dispatched when it
//      appears. A gap older than gap_timeout is taken for a rollback; should it fill
//      even later, the overlap re-read still finds it while it is within `overlap`
//      positions of the checkpoint, and filter_unprocessed + the inbox dedup keep
//      every case effectively-once.
// Gap ages are measured with the Clock from when this consumer first saw the gap (a
// restarted consumer starts them again: it waits longer, never less).
//
// A dispatch failure stops the poll: the checkpoint advances up to the failed row and
// the exception propagates; the row is tried again on the next poll.
//
// Thread-safety: one poller per consumer id (poll() and run() are not re-entrant).
#ifndef DOCKET_OUTBOX_PULL_CONSUMER_H_
#define DOCKET_OUTBOX_PULL_CONSUMER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stop_token>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/outbox_store.h"

namespace docket {

struct PullConsumerSettings {
  std::size_t batch_size = 100;  // new rows per poll
  std::int64_t overlap = 1000;   // positions re-read behind the checkpoint
  std::chrono::microseconds gap_timeout{std::chrono::seconds(60)};
  // run()'s idle waits, as the relay's (RelaySettings): after a poll that dispatched
  // nothing, poll_interval, doubling up to max_poll_interval; with wake_ups, ended at
  // once by a commit that staged messages (OutboxStore::staged_signal).
  std::chrono::microseconds poll_interval{std::chrono::milliseconds(200)};
  std::chrono::microseconds max_poll_interval{std::chrono::seconds(1)};
  bool wake_ups = true;
};

struct PullPass {
  std::size_t read = 0;         // rows in the window
  std::size_t processed = 0;    // dispatched: kProcessed
  std::size_t skipped = 0;      // dispatched: kSkippedDuplicate, or kUnhandled (no handler)
  std::int64_t checkpoint = 0;  // after the poll
};

class PullConsumer {
 public:
  // Throws ConfigurationError for a batch size of 0, a negative overlap or gap_timeout,
  // a poll_interval that is not positive or a max_poll_interval below it. The feed,
  // dispatcher (and its store) and clock must outlive it.
  PullConsumer(OutboxStore& feed, const InboxDispatcher& dispatcher,
               PullConsumerSettings settings = {}, const Clock& clock = SystemClock::instance());

  PullPass poll();

  // Polls until `stop` is requested: the next poll at once after one that dispatched
  // rows, otherwise after an idle wait (PullConsumerSettings), real time, ended early
  // by the stop request. Propagates the first error of poll(), with the checkpoint
  // before the failed row: catch it to alert, or to run again after a delay.
  void run(std::stop_token stop);

 private:
  OutboxStore& feed_;
  const InboxDispatcher& dispatcher_;
  PullConsumerSettings settings_;
  const Clock& clock_;
  std::map<std::int64_t, Timestamp> gaps_first_seen_;  // by the gap's lowest position
};

// The checkpoint-advance rule of poll() step 4, exposed for tests: advances
// `checkpoint` over `processed` (ascending positions, those <= checkpoint ignored),
// passing a gap only when `gaps_first_seen` (updated here: new gaps recorded at `now`,
// passed ones forgotten) dates it at least `gap_timeout` before `now`.
std::int64_t advance_checkpoint(std::int64_t checkpoint, const std::vector<std::int64_t>& processed,
                                std::map<std::int64_t, Timestamp>& gaps_first_seen, Timestamp now,
                                std::chrono::microseconds gap_timeout);

}  // namespace docket

#endif  // DOCKET_OUTBOX_PULL_CONSUMER_H_
