// The SQLite provider (library docket::sqlite): the embedded default, for the inbox
// (with checkpoints) and the outbox.
//
// One database file in WAL mode with synchronous=FULL (a commit is durable when it
// returns). Every unit of work is `BEGIN IMMEDIATE`, so writers queue on SQLite's
// write lock (waiting up to busy_timeout) instead of failing at commit. Each
// concurrent caller gets its own pooled connection; statements are prepared once per
// connection.
//
// Thread-safety: the store may be used from many threads and many processes at once.
#ifndef DOCKET_SQLITE_STORE_H_
#define DOCKET_SQLITE_STORE_H_

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"
#include "docket/outbox/outbox_store.h"

namespace docket::sqlite {

struct StoreOptions {
  // The database file, created when missing; ":memory:" for a private in-memory
  // database, which is served by a single connection.
  std::string path;
  // How long a unit of work waits for the write lock before InfrastructureError.
  std::chrono::milliseconds busy_timeout{30'000};
  // Connections kept open at most; further callers wait for one to be returned.
  std::size_t max_connections = 8;
};

// Throws ConfigurationError for an empty path or max_connections of 0. The file is
// opened and the schema migrated on first use (or by migrate()).
std::unique_ptr<InboxStore> open_store(StoreOptions options,
                                       const Clock& clock = SystemClock::instance());

// The outbox (table docket_outbox) in the database at options.path: a producer's
// orders and its messages commit together in units of work from its begin(), and an
// inbox handler on a store over the same file may stage follow-up messages through its
// own transaction. On ":memory:" the outbox is its own private database: stage only
// through its begin(). Same refusals as open_store.
std::unique_ptr<OutboxStore> open_outbox_store(StoreOptions options,
                                               const Clock& clock = SystemClock::instance());

}  // namespace docket::sqlite

#endif  // DOCKET_SQLITE_STORE_H_
