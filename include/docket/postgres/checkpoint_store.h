// The PostgreSQL consumer checkpoint store (library docket::postgres) opened on its
// own: the docket_consumer_checkpoints table in the database and search_path of
// options.conninfo, the same table an inbox store on that connection string reaches
// through InboxStore::checkpoints().
//
// Thread-safety: the store may be used from many threads and many processes at once.
#ifndef DOCKET_POSTGRES_CHECKPOINT_STORE_H_
#define DOCKET_POSTGRES_CHECKPOINT_STORE_H_

#include <memory>

#include "docket/core/clock.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/postgres/store.h"

namespace docket::postgres {

// The store owns its connection pool. Same refusals as open_store
// (docket/postgres/store.h); the inbox schema is migrated on first use.
std::unique_ptr<CheckpointStore> open_checkpoint_store(
    StoreOptions options, const Clock& clock = SystemClock::instance());

}  // namespace docket::postgres

#endif  // DOCKET_POSTGRES_CHECKPOINT_STORE_H_
