// The event store SPI: per-tenant event streams with optimistic concurrency, and a
// store-wide feed for projections and catch-up consumers: by global position where the
// store has one order over every stream, by opaque cursor where it has not.
//
// Invariants every provider keeps (tests/conformance/eventsourcing checks them):
//  - append is atomic: all events of one call are stored, or none (a conflict or an
//    exception leaves the stream as it was);
//  - within a stream, versions are 0, 1, 2, ... without gaps;
//  - the stream identity includes the tenant: two tenants with one aggregate id have
//    independent streams and versions; no call naming one tenant reads the other's;
//  - global positions are unique and >= 1; within a stream they increase with version
//    (on a store whose feed is FeedKind::kGlobalPositions);
//  - the feed never makes a consumer skip an event that commits later (the late-commit
//    contract of the store's FeedKind, below).
//
// Appending inside a caller's transaction: the overload taking a HandlerTransaction
// (the inbox's unit of work, as a handler sees it) runs the version check and the
// inserts in that transaction, so the events commit or roll back with the message's
// dedup row and the handler's other writes. Only the provider of the transaction can
// do this (an SQLite event store in an SQLite unit of work on the same database file,
// a memory event store in a memory unit of work on the same docket::memory::Database);
// any other pairing throws ConfigurationError naming both.
//
// Observing appends: set_observer attaches an Observer (docket/core/observer.h) that
// hears every append that reached the store (not those refused as invalid input), with
// its event count, duration and whether it was a version conflict.
//
// Thread-safety: a store may be used from many threads at once; set_observer is the
// exception: call it before the store is shared (it is configuration, not state).
#ifndef DOCKET_EVENTSOURCING_EVENT_STORE_H_
#define DOCKET_EVENTSOURCING_EVENT_STORE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/feed_cursor.h"
#include "docket/core/handler_transaction.h"
#include "docket/core/observer.h"
#include "docket/core/store_capabilities.h"
#include "docket/core/tenant.h"
#include "docket/core/wake_signal.h"
#include "docket/eventsourcing/append_result.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/expected_version.h"
#include "docket/eventsourcing/stream_id.h"

namespace docket {

// Most events one read_all or read_feed call returns.
inline constexpr std::size_t kMaxReadAllLimit = 10'000;

struct ReadAllPage {
  std::vector<RecordedEvent> events;  // ascending global position
  // Where the next call continues (checkpoint this): after the last event returned, or
  // the `from_position` of the call when none was.
  std::int64_t next_position = 1;
};

struct FeedPage {
  std::vector<RecordedEvent> events;  // in feed order; within a stream, by version
  // One per event: resume_at[i] is the cursor a read resumes from to get events[i]
  // again and what follows it (where a consumer that failed on events[i] resumes).
  std::vector<FeedCursor> resume_at;
  // Where the next call continues (checkpoint this): past every event returned.
  FeedCursor next;
};

class EventStore {
 public:
  virtual ~EventStore() = default;
  EventStore(const EventStore&) = delete;
  EventStore& operator=(const EventStore&) = delete;

  // The provider's name: "memory", "sqlite", ...
  virtual std::string_view provider_name() const noexcept = 0;

  // What this store can do; see docket/core/store_capabilities.h. read_all needs a feed of
  // FeedKind::kGlobalPositions, read_feed one of either kind; appending in a handler's
  // transaction needs joins_handler_writes.
  virtual StoreCapabilities capabilities() const noexcept = 0;

  // The wake signal notified after a commit that appended events on this store's
  // database, shared by every store of this process on it; feed consumers wait on it
  // between pages (docket/core/wake_signal.h). nullptr (the default) where the store
  // hears no appends: its consumers poll alone.
  virtual std::shared_ptr<WakeSignal> appended_signal() { return nullptr; }

  // Appends `events` (at least one) to `stream` if it meets `expected`. Assigns each
  // event a UUIDv7 id and, when it has none, the clock's time as occurred-at.
  // A conflict is a result value; nothing is then written. Throws InvalidInputError
  // (nothing written) when `events` is empty or an event's type or lineage id is
  // empty/invalid UTF-8/too long; InfrastructureError when the store fails.
  AppendResult append(const StreamId& stream, ExpectedVersion expected,
                      std::span<const NewEvent> events);
  AppendResult append(const StreamId& stream, ExpectedVersion expected,
                      std::initializer_list<NewEvent> events) {
    return append(stream, expected, std::span<const NewEvent>(events.begin(), events.size()));
  }

  // The same inside `transaction`, the unit of work of the inbox dispatch that is
  // running the calling handler: the version check sees that transaction's own earlier
  // writes, and the events commit when the dispatcher commits (or vanish when it rolls
  // back). A conflict is still a result value, and nothing of this call is written.
  // A provider that assigns global positions at commit (memory) returns them as 0.
  // Throws as the overload above, and ConfigurationError when this store cannot write
  // in `transaction` (another provider's, or another database).
  AppendResult append(HandlerTransaction& transaction, const StreamId& stream,
                      ExpectedVersion expected, std::span<const NewEvent> events);
  AppendResult append(HandlerTransaction& transaction, const StreamId& stream,
                      ExpectedVersion expected, std::initializer_list<NewEvent> events) {
    return append(transaction, stream, expected,
                  std::span<const NewEvent>(events.begin(), events.size()));
  }

  // The events of `stream` with version >= `from_version`, ascending; empty when the
  // stream does not exist or ends before. Throws InvalidInputError for from_version < 0.
  std::vector<RecordedEvent> load(const StreamId& stream, std::int64_t from_version = 0);

  // At most `limit` (1..kMaxReadAllLimit) events with global position >= from_position
  // (>= 0), ascending, of every tenant or, when `tenant` is given, of that tenant only.
  //
  // Late-commit contract of FeedKind::kGlobalPositions: a position may be assigned
  // before its transaction commits (a SQL sequence), so position 7 can become visible
  // after position 8. read_all must never return an event at position p while a lower
  // position that may still commit is invisible: a page ends before the first position
  // that is in flight. So a consumer that checkpoints next_position never skips an
  // event. Positions whose transactions roll back are gaps, and read_all moves past
  // them once they are known to be final. The memory provider assigns positions at
  // commit, under its lock, so nothing is ever in flight there.
  //
  // Only a store whose feed is FeedKind::kGlobalPositions (memory, SQLite, PostgreSQL)
  // offers read_all; any other throws ConfigurationError naming the capability and
  // the alternative (read_feed where its feed has opaque cursors).
  ReadAllPage read_all(std::int64_t from_position, std::size_t limit,
                       const std::optional<TenantId>& tenant = std::nullopt);

  // The feed by cursor, for every feed kind: at most `limit` (1..kMaxReadAllLimit)
  // events after `after` (FeedCursor::start() for the beginning, else a cursor this
  // store's read_feed returned), of every tenant or, when `tenant` is given, of that
  // tenant only, with a cursor per event and the cursor to continue from. An empty page
  // means nothing more is visible now, not that nothing can come later.
  //
  // FeedKind::kGlobalPositions: read_all under its contract above; a cursor is the
  // position as decimal text (next is next_position, resume_at[i] is events[i]'s
  // global position), so a read_all checkpoint parses as a cursor of this feed.
  //
  // FeedKind::kOpaqueCursors, late-commit contract: reading on from a cursor the store
  // gave (a page's next or resume_at[i], or start()) eventually returns every event
  // committed after the cursor was given, whenever that commit happens, and every event
  // that was visible then and lies after it: a consumer that resumes from any cursor
  // it was given never skips an event. The store chooses how (a read at a fixed read
  // time, a change stream). An event may be returned again, in a later page or after a
  // resume (at least once): deduplicate by event id, as the EventFeedConsumer does
  // through the inbox.
  //
  // Throws InvalidInputError for a limit outside 1..kMaxReadAllLimit, or a cursor this
  // store does not accept (accepts_cursor: another feed kind's, another scheme's);
  // ConfigurationError on a store without a feed (FeedKind::kNone).
  FeedPage read_feed(const FeedCursor& after, std::size_t limit,
                     const std::optional<TenantId>& tenant = std::nullopt);

  // The head of a feed of global positions: the position of the newest visible event
  // (of `tenant` only, when given), or 0 when there is none. A consumer whose checkpoint
  // (the next position it reads) is above it has read everything visible now. One read
  // of the position index. Throws ConfigurationError, as read_all, where the feed is
  // not FeedKind::kGlobalPositions.
  std::int64_t last_position(const std::optional<TenantId>& tenant = std::nullopt);

  // Attaches `observer` to this store's appends (null: none, the default). Not
  // synchronised with appends: call it before other threads use the store.
  void set_observer(std::shared_ptr<Observer> observer) noexcept {
    observer_ = std::move(observer);
  }
  const std::shared_ptr<Observer>& observer() const noexcept { return observer_; }

  // Whether read_feed takes `cursor`: start() on every store with a feed; a decimal
  // position where the feed has global positions; the store's own scheme where it has
  // opaque cursors. Never true on a store without a feed.
  bool accepts_cursor(const FeedCursor& cursor) const;

 protected:
  explicit EventStore(const Clock& clock) noexcept : clock_(clock) {}

  // `events` are validated and complete except for version and global_position, which
  // the provider assigns (the values passed in are 0) if `expected` holds, all in one
  // transaction.
  virtual AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                                 std::vector<RecordedEvent> events) = 0;
  // The same inside the caller's `transaction`: the version check and inserts run in
  // it, never committing it. The default refuses (ConfigurationError, see
  // cannot_join_error); a provider that can join its own transactions overrides it.
  virtual AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                                    ExpectedVersion expected, std::vector<RecordedEvent> events);
  virtual std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) = 0;
  // `tenant` is null for every tenant. Arguments are validated. Called only when the
  // store's feed is FeedKind::kGlobalPositions, which must override it (the default
  // throws std::logic_error), also for read_feed.
  virtual ReadAllPage do_read_all(std::int64_t from_position, std::size_t limit,
                                  const TenantId* tenant);
  // `tenant` is null for every tenant. Called only where the feed is
  // FeedKind::kGlobalPositions, which must override it (the default throws
  // std::logic_error).
  virtual std::int64_t do_last_position(const TenantId* tenant);
  // A store whose feed is FeedKind::kOpaqueCursors overrides both (the defaults throw
  // std::logic_error and accept nothing). do_read_feed gets a cursor that
  // do_accepts_cursor took, or start(), and returns one resume_at per event and a
  // next cursor of its own scheme, under the contract of read_feed above.
  virtual FeedPage do_read_feed(const FeedCursor& after, std::size_t limit, const TenantId* tenant);
  virtual bool do_accepts_cursor(const FeedCursor& cursor) const;

 protected:
  // "the <provider> event store cannot append inside a <transaction type>: ..." with
  // `reason` and what to do instead.
  ConfigurationError cannot_join_error(const HandlerTransaction& transaction,
                                       std::string_view reason) const;

 private:
  // "the <provider> event store", as refusals name it.
  std::string store_name() const;
  std::vector<RecordedEvent> prepare(const StreamId& stream, ExpectedVersion expected,
                                     std::span<const NewEvent> events) const;
  // Runs `write` (one of the do_append calls) and tells the observer what it did.
  template <class Write>
  AppendResult observed_append(const StreamId& stream, std::size_t events, bool in_transaction,
                               Write&& write);

  const Clock& clock_;
  std::shared_ptr<Observer> observer_;
};

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_EVENT_STORE_H_
