// The memory consumer checkpoint store (library docket::memory) opened on its own: the
// checkpoints of a docket::memory::Database, which an inbox store on the same database
// also reaches through InboxStore::checkpoints(). Nothing survives the database.
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_MEMORY_CHECKPOINT_STORE_H_
#define DOCKET_MEMORY_CHECKPOINT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/memory/database.h"

namespace docket::memory {

// The checkpoints of `database`, which the store keeps alive; its clock stamps them.
std::unique_ptr<CheckpointStore> open_checkpoint_store(const Database& database);

// The same on a database of its own. `clock` must outlive the store.
std::unique_ptr<CheckpointStore> open_checkpoint_store(
    const Clock& clock = SystemClock::instance());

}  // namespace docket::memory

#endif  // DOCKET_MEMORY_CHECKPOINT_STORE_H_
