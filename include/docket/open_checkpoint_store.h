// Opens a consumer checkpoint store (docket/checkpoint_store.h) on its own from a URL,
// with the schemes of open_inbox_store():
//
//   memory:                    process-local, a database of its own
//   sqlite:///path/to/file.db  the docket_consumer_checkpoints table in that SQLite file
//   sqlite::memory:            a private in-memory SQLite database
//   postgresql://user@host:port/db
//                              the same table on PostgreSQL (also postgres://)
//
// It is the table an inbox store opened on the same SQLite file or PostgreSQL URL keeps
// its checkpoints in (InboxStore::checkpoints()): a pull consumer that needs only its
// position opens this, without an inbox store. The store returned owns its connections
// to the database and keeps it open for as long as it lives.
//
// Thread-safety: safe to call from many threads; the store returned is thread-safe.
#ifndef DOCKET_OPEN_CHECKPOINT_STORE_H_
#define DOCKET_OPEN_CHECKPOINT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/checkpoint_store.h"
#include "docket/clock.h"

namespace docket {

// `clock` stamps the checkpoint times; it must outlive the store. Throws
// ConfigurationError for an unknown or unavailable scheme, listing the schemes.
std::unique_ptr<CheckpointStore> open_checkpoint_store(
    std::string_view url, const Clock& clock = SystemClock::instance());

}  // namespace docket

#endif  // DOCKET_OPEN_CHECKPOINT_STORE_H_
