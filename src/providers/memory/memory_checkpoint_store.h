// The memory CheckpointStore over a database's committed state, for the memory inbox
// store (InboxStore::checkpoints()) and for open_checkpoint_store.
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_CHECKPOINT_STORE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_CHECKPOINT_STORE_H_

#include <memory>

#include "docket/inbox/checkpoint_store.h"

namespace docket::memory::detail {

class Database;

// The checkpoints of `database`, which the store keeps alive.
std::unique_ptr<CheckpointStore> open_checkpoints(std::shared_ptr<Database> database);

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_CHECKPOINT_STORE_H_
