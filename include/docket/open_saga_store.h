// Opens a saga store from a URL, with the schemes of open_inbox_store() (memory:,
// sqlite:///path/to/file.db, sqlite::memory:, postgresql://...): the docket_sagas
// table of that database, or a memory database of its own.
//
// A saga store and an inbox store opened on the same SQLite file, or the same
// PostgreSQL URL, share its database: an inbox handler may load and save sagas through
// its own transaction (SagaStore::load/save(transaction, ...)).
//
// Thread-safety: safe to call from many threads; the store returned is thread-safe.
#ifndef DOCKET_OPEN_SAGA_STORE_H_
#define DOCKET_OPEN_SAGA_STORE_H_

#include <memory>
#include <string_view>

#include "docket/clock.h"
#include "docket/saga_store.h"

namespace docket {

// `clock` stamps the saga timestamps; it must outlive the store. Throws
// ConfigurationError for an unknown or unavailable scheme, listing the schemes.
std::unique_ptr<SagaStore> open_saga_store(std::string_view url,
                                           const Clock& clock = SystemClock::instance());

}  // namespace docket

#endif  // DOCKET_OPEN_SAGA_STORE_H_
