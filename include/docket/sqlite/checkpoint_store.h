// The SQLite consumer checkpoint store (library docket::sqlite) opened on its own: the
// docket_consumer_checkpoints table of the database at options.path, the same table an
// inbox store on that file reaches through InboxStore::checkpoints().
//
// Thread-safety: the store may be used from many threads and many processes at once.
#ifndef DOCKET_SQLITE_CHECKPOINT_STORE_H_
#define DOCKET_SQLITE_CHECKPOINT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/sqlite/store.h"

namespace docket::sqlite {

// The store owns its connection pool. Same refusals as open_store
// (docket/sqlite/store.h); the inbox schema is migrated on first use.
std::unique_ptr<CheckpointStore> open_checkpoint_store(
    StoreOptions options, const Clock& clock = SystemClock::instance());

}  // namespace docket::sqlite

#endif  // DOCKET_SQLITE_CHECKPOINT_STORE_H_
