// The PostgreSQL saga store (library docket::postgres): every guarantee of
// docket/sagas/saga_store.h in docket_sagas (docket/eventsourcing/eventsourcing_schema.h).
//
// A save is one transaction: SELECT ... FOR UPDATE reads (and locks) the saga's
// version and completed flag, and the write happens only at the expected version, so
// of two saves expecting one version exactly one succeeds. Two first saves of one saga
// race on the primary key; the loser inserts nothing and returns the conflict.
// Completed sagas are kept until purged; each purge batch is one DELETE statement of
// at most batch_size sagas, oldest completion first.
//
// Inside an inbox handler's unit of work (SagaStore::load/save with the handler's
// transaction): the store joins a docket::postgres::Transaction whose connection
// resolves docket_sagas to the store's own table (same database and search_path: open
// the inbox and saga stores with the same conninfo); otherwise ConfigurationError names
// both tables. load(transaction, ...) reads with SELECT ... FOR UPDATE, so the saga's
// row stays locked until the unit of work ends: a concurrent step of the same saga
// waits at its own load and then reads the committed new version, so steps of one
// saga queue instead of conflicting. Only two first saves of a saga that does not
// exist yet (no row to lock) can race; the loser's save is a VersionConflict.
//
// Thread-safety: the store may be used from many threads (at most
// options.max_connections connections at once) and many processes at once.
#ifndef DOCKET_POSTGRES_SAGA_STORE_H_
#define DOCKET_POSTGRES_SAGA_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/postgres/store.h"
#include "docket/sagas/saga_store.h"

namespace docket::postgres {

// Opens a store on the database `options.conninfo` names, which may be the event store's, and
// creates the event sourcing tables when absent. `clock` stamps the saga timestamps
// and must outlive the store. Throws as docket::postgres::open_event_store.
std::unique_ptr<SagaStore> open_saga_store(StoreOptions options,
                                           const Clock& clock = SystemClock::instance());

}  // namespace docket::postgres

#endif  // DOCKET_POSTGRES_SAGA_STORE_H_
