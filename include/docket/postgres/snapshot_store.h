// The PostgreSQL snapshot store (library docket::postgres): every guarantee of
// docket/eventsourcing/snapshot_store.h in docket_snapshots
// (docket/eventsourcing/eventsourcing_schema.h).
//
// A save is one upsert statement whose update applies only when the new version is
// at least the stored one; the primary key (tenant, aggregate_type, aggregate_id)
// serializes concurrent saves of one stream, so a snapshot never regresses.
//
// Thread-safety: the store may be used from many threads (at most
// options.max_connections connections at once) and many processes at once.
#ifndef DOCKET_POSTGRES_SNAPSHOT_STORE_H_
#define DOCKET_POSTGRES_SNAPSHOT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "docket/postgres/store.h"

namespace docket::postgres {

// Opens a store on the database `options.conninfo` names, which may be the event store's, and
// creates the event sourcing tables when absent. `clock` stamps taken_at and must
// outlive the store. Throws as docket::postgres::open_event_store.
std::unique_ptr<SnapshotStore> open_snapshot_store(StoreOptions options,
                                                   const Clock& clock = SystemClock::instance());

}  // namespace docket::postgres

#endif  // DOCKET_POSTGRES_SNAPSHOT_STORE_H_
