// The SQLite CheckpointStore over a Database: the inbox store's (InboxStore::
// checkpoints()), or one of its own (open_checkpoint_store).
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_CHECKPOINT_STORE_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_CHECKPOINT_STORE_H_

#include <memory>

#include "docket/inbox/checkpoint_store.h"
#include "providers/sqlite/sqlite_database.h"

namespace docket::sqlite::detail {

// The checkpoints in `database`, which must outlive the store.
std::unique_ptr<CheckpointStore> open_checkpoints(Database& database);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_CHECKPOINT_STORE_H_
