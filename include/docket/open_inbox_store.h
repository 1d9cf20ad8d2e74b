// Opens an inbox store (with its checkpoint store) from a URL:
//
//   memory:                    process-local, for tests and prototyping
//   sqlite:///path/to/file.db  one SQLite file (absolute path; sqlite://rel.db is relative)
//   sqlite::memory:            a private in-memory SQLite database (one connection)
//   postgresql://user@host:port/db?sslmode=require
//                              PostgreSQL (also postgres://); the URL is the libpq
//                              connection string, every libpq parameter honoured
//
// Providers are separate libraries; this factory (library docket::stores) knows the
// ones this build of docket includes, each by its URL scheme, and opens every store
// (inbox, checkpoint, outbox, event, snapshot, saga, claim inbox) the provider offers.
// An unknown or unavailable scheme is a ConfigurationError listing the schemes.
//
// Thread-safety: safe to call from many threads; the store returned is thread-safe.
#ifndef DOCKET_OPEN_INBOX_STORE_H_
#define DOCKET_OPEN_INBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/clock.h"
#include "docket/inbox_store.h"

namespace docket {

// `clock` stamps processed-at and checkpoint times; it must outlive the store.
std::unique_ptr<InboxStore> open_inbox_store(std::string_view url,
                                             const Clock& clock = SystemClock::instance());

}  // namespace docket

#endif  // DOCKET_OPEN_INBOX_STORE_H_
