// The SQLite event store (library docket::sqlite): every guarantee of
// docket/eventsourcing/event_store.h in the tables of docket/eventsourcing/eventsourcing_schema.h.
//
// Open it with the same StoreOptions as docket::sqlite::open_store to keep the inbox
// and the events in one database file: then an inbox handler can append inside its
// unit of work (EventStore::append with ctx's HandlerTransaction), and the events
// commit or roll back with the message's dedup row. A docket::sqlite::Transaction on
// another file, or another provider's transaction, is refused with ConfigurationError.
//
// Concurrency: each append is one BEGIN IMMEDIATE transaction (or runs in the inbox's,
// which is one too) that reads the stream's version and inserts the events, so
// appenders queue on SQLite's write lock (up to busy_timeout) and a stale expectation
// comes back as a VersionConflict with nothing written. The unique stream key
// (tenant, aggregate_type, aggregate_id, version) is the final guard.
//
// read_all and late commits: global positions are assigned (AUTOINCREMENT) by the
// writer holding SQLite's single write lock and become visible when it commits,
// before the next writer can assign one. So positions become visible in ascending
// order, and a reader that sees position p sees every lower position that will ever
// commit: nothing is ever in flight below a visible position, and a checkpointed
// next_position never skips an event. A rolled-back append gives its positions back
// (the sequence rolls back with it), so there are no gaps to wait for.
//
// Thread-safety: the store may be used from many threads (each call takes its own
// pooled connection) and many processes at once.
#ifndef DOCKET_SQLITE_EVENT_STORE_H_
#define DOCKET_SQLITE_EVENT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/sqlite/store.h"

namespace docket::sqlite {

// Opens (creating when missing) the database at options.path and creates the event
// sourcing tables when absent. `clock` stamps occurred-at when an event has none and
// must outlive the store. Throws ConfigurationError for unusable options or a newer
// schema version, InfrastructureError when the file cannot be opened or migrated.
std::unique_ptr<EventStore> open_event_store(StoreOptions options,
                                             const Clock& clock = SystemClock::instance());

}  // namespace docket::sqlite

#endif  // DOCKET_SQLITE_EVENT_STORE_H_
