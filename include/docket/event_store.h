// The event store SPI: per-tenant event streams with optimistic concurrency, and a
// store-wide feed by global position for projections and catch-up consumers.
//
// Invariants every provider keeps (tests/conformance/eventsourcing checks them):
//  - append is atomic: all events of one call are stored, or none (a conflict or an
//    exception leaves the stream as it was);
//  - within a stream, versions are 0, 1, 2, ... without gaps;
//  - the stream identity includes the tenant: two tenants with one aggregate id have
//    independent streams and versions; no call naming one tenant reads the other's;
//  - global positions are unique and >= 1; within a stream they increase with version;
//  - read_all never skips an event that commits later (the late-commit contract below).
//
// Appending inside a caller's transaction: the overload taking a HandlerTransaction
// (the inbox's unit of work, as a handler sees it) runs the version check and the
// inserts in that transaction, so the events commit or roll back with the message's
// dedup row and the handler's other writes. Only the provider of the transaction can
// do this (an SQLite event store in an SQLite unit of work on the same database file,
// a memory event store in a memory unit of work on the same docket::memory::Database);
// any other pairing throws ConfigurationError naming both.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_EVENT_STORE_H_
#define DOCKET_EVENT_STORE_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "docket/append_result.h"
#include "docket/clock.h"
#include "docket/error.h"
#include "docket/event.h"
#include "docket/expected_version.h"
#include "docket/handler_transaction.h"
#include "docket/store_capabilities.h"
#include "docket/stream_id.h"
#include "docket/tenant.h"

namespace docket {

// Most events one read_all call returns.
inline constexpr std::size_t kMaxReadAllLimit = 10'000;

struct ReadAllPage {
  std::vector<RecordedEvent> events;  // ascending global position
  // Where the next call continues (checkpoint this): after the last event returned, or
  // the `from_position` of the call when none was.
  std::int64_t next_position = 1;
};

class EventStore {
 public:
  virtual ~EventStore() = default;
  EventStore(const EventStore&) = delete;
  EventStore& operator=(const EventStore&) = delete;

  // The provider's name: "memory", "sqlite", ...
  virtual std::string_view provider_name() const noexcept = 0;

  // What this store can do; see docket/store_capabilities.h. read_all needs
  // ordered_feed; appending in a handler's transaction needs joins_handler_writes.
  virtual StoreCapabilities capabilities() const noexcept = 0;

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
  // Late-commit contract: a position may be assigned before its transaction commits
  // (a SQL sequence), so position 7 can become visible after position 8. read_all must
  // never return an event at position p while a lower position that may still commit
  // is invisible: a page ends before the first position that is in flight. So a
  // consumer that checkpoints next_position never skips an event. Positions whose
  // transactions roll back are gaps, and read_all moves past them once they are
  // known to be final. The memory provider assigns positions at commit, under its
  // lock, so nothing is ever in flight there.
  //
  // The contract is a capability: a store states ordered_feed when its positions are
  // one total order over every stream that keeps it (memory, SQLite, PostgreSQL).
  // A store without a global sequence (a document store: a counter every append would
  // contend on is a hot item) does not offer read_all: it throws ConfigurationError
  // naming the capability, and feeds are built from the outbox or the store's own
  // change stream, whose positions are opaque cursors kept in a CheckpointStore.
  ReadAllPage read_all(std::int64_t from_position, std::size_t limit,
                       const std::optional<TenantId>& tenant = std::nullopt);

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
  // `tenant` is null for every tenant. Arguments are validated.
  virtual ReadAllPage do_read_all(std::int64_t from_position, std::size_t limit,
                                  const TenantId* tenant) = 0;

 protected:
  // "the <provider> event store cannot append inside a <transaction type>: ..." with
  // `reason` and what to do instead.
  ConfigurationError cannot_join_error(const HandlerTransaction& transaction,
                                       std::string_view reason) const;

 private:
  std::vector<RecordedEvent> prepare(const StreamId& stream, ExpectedVersion expected,
                                     std::span<const NewEvent> events) const;

  const Clock& clock_;
};

}  // namespace docket

#endif  // DOCKET_EVENT_STORE_H_
