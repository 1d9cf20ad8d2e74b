// The memory snapshot store (library docket::memory): the latest snapshot per stream,
// process-local, for prototyping and tests. Keeps every guarantee of
// docket/eventsourcing/snapshot_store.h; nothing survives its database.
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_MEMORY_SNAPSHOT_STORE_H_
#define DOCKET_MEMORY_SNAPSHOT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "docket/memory/database.h"

namespace docket::memory {

// The snapshot store of `database`; the database's clock stamps taken_at.
std::unique_ptr<SnapshotStore> open_snapshot_store(const Database& database);

// An empty snapshot store on a database of its own. `clock` stamps taken_at, and must
// outlive the store.
std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_SNAPSHOT_STORE_H_
