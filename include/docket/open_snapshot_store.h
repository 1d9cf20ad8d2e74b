// Opens a snapshot store from a URL, with the schemes of open_inbox_store() (memory:,
// sqlite:///path/to/file.db, sqlite::memory:, postgresql://...): the docket_snapshots
// table of that database, or a memory database of its own.
//
// Thread-safety: safe to call from many threads; the store returned is thread-safe.
#ifndef DOCKET_OPEN_SNAPSHOT_STORE_H_
#define DOCKET_OPEN_SNAPSHOT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/clock.h"
#include "docket/snapshot_store.h"

namespace docket {

// `clock` stamps taken_at; it must outlive the store. Throws ConfigurationError for an
// unknown or unavailable scheme, listing the schemes.
std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url,
                                                   const Clock& clock = SystemClock::instance());

}  // namespace docket

#endif  // DOCKET_OPEN_SNAPSHOT_STORE_H_
