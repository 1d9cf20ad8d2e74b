// The PostgreSQL event store (library docket::postgres): every guarantee of
// docket/eventsourcing/event_store.h in the tables of docket/eventsourcing/eventsourcing_schema.h.
//
// Concurrency: an append is one READ COMMITTED transaction that reads the stream's
// version and inserts the events. Two appenders that both pass the check race on the
// unique stream key (tenant, aggregate_type, aggregate_id, version): the second
// blocks until the first commits, then its insert fails and the append returns a
// VersionConflict with nothing of it written.
//
// read_all and late commits: global positions are drawn from a sequence before
// commit, so position 7 may commit after 8. Each append announces its lowest position
// with a transaction-level advisory lock until it ends; read_all first computes a
// watermark (the sequence's last value + 1, lowered to the smallest announced
// position) and returns only events below it, read with a later snapshot. So a page
// never passes a position still in flight, and a rolled-back append's positions are
// gaps that read_all passes once its transaction has ended. Details:
// docs/eventsourcing.md, "PostgreSQL: positions in flight".
//
// Appending inside a handler's transaction: EventStore::append with the
// docket::postgres::Transaction of an inbox opened on the same conninfo (the same
// docket_events table) runs in that transaction; any other transaction is refused
// with ConfigurationError.
//
// Thread-safety: the store may be used from many threads (each call leases its own
// pooled connection, at most options.max_connections at once) and many processes at once.
#ifndef DOCKET_POSTGRES_EVENT_STORE_H_
#define DOCKET_POSTGRES_EVENT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/postgres/store.h"

namespace docket::postgres {

// Opens a store on the database `options.conninfo` names (the tables live in the first
// schema of its search_path) and creates the event sourcing tables when absent.
// `clock` stamps occurred-at when an event has none and must outlive the store. Throws
// ConfigurationError for an unparsable string, max_connections 0 or a newer schema
// version, InfrastructureError when the server cannot be reached or migrated.
std::unique_ptr<EventStore> open_event_store(StoreOptions options,
                                             const Clock& clock = SystemClock::instance());

}  // namespace docket::postgres

#endif  // DOCKET_POSTGRES_EVENT_STORE_H_
