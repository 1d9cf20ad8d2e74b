// The SQLite snapshot store (library docket::sqlite): every guarantee of
// docket/eventsourcing/snapshot_store.h in docket_snapshots
// (docket/eventsourcing/eventsourcing_schema.h).
//
// A save is one upsert statement whose update applies only when the stored version is
// not higher, so the keep-newer rule holds against concurrent savers without a
// read-then-write race.
//
// Thread-safety: the store may be used from many threads and many processes at once.
#ifndef DOCKET_SQLITE_SNAPSHOT_STORE_H_
#define DOCKET_SQLITE_SNAPSHOT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "docket/sqlite/store.h"

namespace docket::sqlite {

// Opens (creating when missing) the database at options.path, which may be the event
// store's and the inbox's, and creates the event sourcing tables when absent. `clock`
// stamps taken_at and must outlive the store. Throws as open_event_store.
std::unique_ptr<SnapshotStore> open_snapshot_store(StoreOptions options,
                                                   const Clock& clock = SystemClock::instance());

}  // namespace docket::sqlite

#endif  // DOCKET_SQLITE_SNAPSHOT_STORE_H_
