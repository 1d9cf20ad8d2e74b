// The PostgreSQL CheckpointStore over a Database: the inbox store's (InboxStore::
// checkpoints()), or one of its own (open_checkpoint_store).
//
// Thread-safety: the store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_POSTGRES_CHECKPOINT_STORE_H_
#define DOCKET_PROVIDERS_POSTGRES_CHECKPOINT_STORE_H_

#include <memory>

#include "docket/inbox/checkpoint_store.h"
#include "providers/postgres/postgres_database.h"

namespace docket::postgres::detail {

// The checkpoints in `database`, which must outlive the store.
std::unique_ptr<CheckpointStore> open_checkpoints(Database& database);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_CHECKPOINT_STORE_H_
