// The memory event store (library docket::memory): process-local streams, for
// prototyping and tests. It keeps every guarantee of docket/eventsourcing/event_store.h; nothing
// survives its database.
//
// Global positions are assigned at commit, under the database's lock, so read_all
// never has a position in flight.
//
// Inside a caller's transaction: append(transaction, ...) joins the unit of work of a
// memory inbox store on the same docket::memory::Database (docket/memory/database.h).
// The version check runs against what that unit sees (committed events and its own
// staged appends), and a conflict there is a result value; the events are staged and
// commit with the dedup row. Their global positions are assigned at that commit, so
// the AppendedEvent::global_position values the call returns are 0 (load or read_all
// after the commit shows them). Units of work are optimistic: the commit checks the
// stream's version again, and a unit whose stream another unit appended to in between
// fails at commit with ConcurrencyConflictError and writes nothing;
// dispatch() rethrows it (the message is delivered again), dispatch_batch runs the
// batch again. A transaction of another memory database or another provider throws
// ConfigurationError naming both.
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_MEMORY_EVENT_STORE_H_
#define DOCKET_MEMORY_EVENT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/memory/database.h"

namespace docket::memory {

// The event store of `database`; the database's clock stamps occurred-at when an event
// has none.
std::unique_ptr<EventStore> open_event_store(const Database& database);

// An empty event store on a database of its own. `clock` stamps occurred-at when an
// event has none, and must outlive the store.
std::unique_ptr<EventStore> open_event_store(const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_EVENT_STORE_H_
