// Opens an event store from a URL, with the schemes of open_inbox_store():
//
//   memory:                    process-local, a database of its own
//   sqlite:///path/to/file.db  the docket_events table in that SQLite file
//   sqlite::memory:            a private in-memory SQLite database
//   postgresql://user@host:port/db
//                              the docket_events table on PostgreSQL (also postgres://)
//
// An event store and an inbox store opened on the same SQLite file, or the same
// PostgreSQL URL, share its database: an inbox handler may append events through its
// own transaction (EventStore::append(transaction, ...)). Two memory: stores never
// share one; open them on one docket::memory::Database for that
// (docket/memory/database.h).
//
// Thread-safety: safe to call from many threads; the store returned is thread-safe.
#ifndef DOCKET_OPEN_EVENT_STORE_H_
#define DOCKET_OPEN_EVENT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/clock.h"
#include "docket/event_store.h"

namespace docket {

// `clock` stamps occurred-at when an event has none; it must outlive the store. Throws
// ConfigurationError for an unknown or unavailable scheme, listing the schemes.
std::unique_ptr<EventStore> open_event_store(std::string_view url,
                                             const Clock& clock = SystemClock::instance());

}  // namespace docket

#endif  // DOCKET_OPEN_EVENT_STORE_H_
