// A catch-up consumer of the event store's feed (EventStore::read_feed): builds
// projections (read models) and integration publishers effectively-once, by running
// every stored event through an inbox dispatcher and resuming from a checkpoint.
//
// One run_once() reads one page and:
//   1. reads the checkpoint, a FeedCursor (the inbox store's checkpoint store, under
//      the dispatcher's consumer id and the checkpoint tenant below; FeedCursor::start()
//      the first time);
//   2. reads read_feed(cursor, batch_size, tenant), whose late-commit contract (the
//      store's FeedKind, docket/eventsourcing/event_store.h) keeps a consumer that resumes from the
//      cursors it was given from skipping an event that commits later;
//   3. passes over the events whose type the dispatcher has no handler for (counted in
//      `unhandled`; nothing is recorded for them);
//   4. dispatches the others as envelopes (to_envelope below) with dispatch_batch,
//      each under its event's tenant (TenantScope), so the dedup key carries it: one
//      transaction per run of consecutive events of one tenant (for a tenant-filtered
//      consumer, one per page), a savepoint per event;
//   5. sets the checkpoint to the page's next cursor.
// A crash between 4 and 5 re-reads the page; its events are then skipped as
// duplicates, so the handlers' writes (made in the inbox's unit of work) happen once.
// The same dedup absorbs an event that a feed of opaque cursors delivers again.
//
// Failure: when an event's dispatch fails (its handler throws, its payload does not
// decode) or a transaction fails, nothing after that event is dispatched, the events
// before it stay committed, the checkpoint is set to the failed event's cursor (its
// page's resume_at: on a feed of global positions, the event's position), and
// run_once() rethrows the error unchanged. The next run_once() starts at that event: the
// checkpoint never passes an event that was not processed, and nothing is skipped.
//
// The checkpoint's tenant: a consumer of one tenant's events keeps its checkpoint
// under that tenant; a consumer of every tenant's events keeps ONE checkpoint for the
// whole feed under "__untenanted__" (kUntenantedSentinel), whatever TenantScope the
// caller has. So per-tenant consumers may share a consumer id (disjoint events, one
// checkpoint each), but a whole-feed consumer needs an id of its own: with a shared
// id, the dedup rows would make each skip what the other processed.
//
// The checkpoint is the cursor's text (FeedCursor::text). On a feed of global positions
// that is the position to read next as decimal text, as it was before cursors, so a
// checkpoint written then resumes where it stood. A checkpoint that is no cursor of
// this store's feed (another feed's consumer with this id) is refused. The event store
// may be another database than the inbox's (the read model lives with the inbox).
//
// Thread-safety: one runner per (consumer id, checkpoint tenant). A second runner stays
// effectively-once (the dedup rows) but repeats work and may move the checkpoint back.
// Handlers run on the thread that calls run_once() or run().
#ifndef DOCKET_PROJECTIONS_EVENT_FEED_CONSUMER_H_
#define DOCKET_PROJECTIONS_EVENT_FEED_CONSUMER_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stop_token>

#include "docket/core/feed_cursor.h"
#include "docket/core/tenant.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/inbox/handler_context.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_envelope.h"

namespace docket {

struct EventFeedSettings {
  // Events read per page (1..kMaxReadAllLimit); one page commits in one transaction
  // per run of one tenant's events.
  std::size_t batch_size = 100;
  // run(): how long to wait after a page that was not full (the consumer caught up):
  // poll_interval after a page that held events, doubling after each empty page up to
  // max_poll_interval. With wake_ups, a commit that appended events ends the wait at
  // once where the store can tell (EventStore::appended_signal); the polls stay, so a
  // lost notification delays an event by one wait, never more.
  std::chrono::microseconds poll_interval{std::chrono::milliseconds(200)};
  std::chrono::microseconds max_poll_interval{std::chrono::seconds(1)};
  bool wake_ups = true;
  // Only this tenant's events (never "__untenanted__"); nullopt: every tenant's.
  std::optional<TenantId> tenant{};
};

// What one run_once() did.
struct EventFeedPass {
  std::size_t read = 0;       // events in the page
  std::size_t processed = 0;  // dispatched: handlers ran and committed
  std::size_t skipped = 0;    // dispatched: already processed (a re-read after a crash),
                              // or marked processed with no handler (UnhandledTypes)
  std::size_t unhandled = 0;  // passed over: no handler for their type
  FeedCursor cursor{};        // where the next page starts
  // The same as a global position, on a feed of global positions; 0 on a feed of
  // opaque cursors, which has none (use `cursor`).
  std::int64_t checkpoint = 0;
};

class EventFeedConsumer {
 public:
  // Throws ConfigurationError for an event store without a feed (FeedKind::kNone), a
  // batch size of 0 or over kMaxReadAllLimit, a poll_interval that is not positive, a
  // max_poll_interval below it, or the "__untenanted__" tenant. The event store and the dispatcher
  // (and its store) must outlive the consumer.
  EventFeedConsumer(EventStore& events, const InboxDispatcher& dispatcher,
                    EventFeedSettings settings = {});

  // Reads and dispatches one page (see above). Throws what a failed dispatch threw
  // (after setting the checkpoint to that event), or InfrastructureError.
  EventFeedPass run_once();

  // Runs pages until `stop` is requested: the next page at once after a full one,
  // otherwise after an idle wait (EventFeedSettings; real time, woken early by the stop
  // request and, with wake_ups, by an append).
  // Propagates the first error of run_once(), with the checkpoint before the failed
  // event: catch it to alert, or to retry after a delay.
  void run(std::stop_token stop);

  // The stored checkpoint: where the next page starts (start() before the first
  // advance). Throws ConfigurationError when the stored text is no cursor of this
  // store's feed (another feed's consumer uses this consumer id).
  FeedCursor cursor() const;

  // The same as a global position (0 before the first advance). Throws as cursor(), and
  // ConfigurationError on a feed of opaque cursors, which has no positions.
  std::int64_t checkpoint() const;

  // The recorded event that a handler called by this consumer is handling (its stream,
  // version and global position): valid during the handler call. Throws
  // ConfigurationError when the handler was not called by an EventFeedConsumer.
  static const RecordedEvent& current_event(const HandlerContext& ctx);

  const EventFeedSettings& settings() const noexcept { return settings_; }

 private:
  EventStore& events_;
  const InboxDispatcher& dispatcher_;
  EventFeedSettings settings_;
};

// The envelope a consumer dispatches for `event`: message id = the event id text
// (stable, so a re-read is a duplicate), event type, payload and occurred-at as
// recorded, correlation and causation ids (absent when empty), and the trace context
// as traceparent/tracestate text.
Envelope to_envelope(const RecordedEvent& event);

}  // namespace docket

#endif  // DOCKET_PROJECTIONS_EVENT_FEED_CONSUMER_H_
