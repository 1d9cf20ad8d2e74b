// The SQLite saga store (library docket::sqlite): every guarantee of
// docket/sagas/saga_store.h in docket_sagas (docket/eventsourcing/eventsourcing_schema.h).
//
// A save is one BEGIN IMMEDIATE transaction that reads the saga's version and
// completed flag and writes only when the version is the expected one, so of two
// saves expecting one version exactly one succeeds. Each purge batch is one DELETE
// statement (its own short transaction) of at most batch_size sagas, oldest
// completion first.
//
// Inside an inbox handler's unit of work (SagaStore::load/save with the handler's
// transaction): the store joins a docket::sqlite::Transaction on its own database file
// (open the inbox and saga stores with the same StoreOptions::path); the unit of work
// holds SQLite's write lock from its start, so no other save can pass between the
// step's load and its commit. Another provider's transaction, another file, or a saga
// store on ":memory:" is refused with ConfigurationError naming both.
//
// Thread-safety: the store may be used from many threads and many processes at once.
#ifndef DOCKET_SQLITE_SAGA_STORE_H_
#define DOCKET_SQLITE_SAGA_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/sagas/saga_store.h"
#include "docket/sqlite/store.h"

namespace docket::sqlite {

// Opens (creating when missing) the database at options.path, which may be the event
// store's and the inbox's, and creates the event sourcing tables when absent. `clock`
// stamps the saga timestamps and must outlive the store. Throws as open_event_store.
std::unique_ptr<SagaStore> open_saga_store(StoreOptions options,
                                           const Clock& clock = SystemClock::instance());

}  // namespace docket::sqlite

#endif  // DOCKET_SQLITE_SAGA_STORE_H_
