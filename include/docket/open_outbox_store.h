// Opens an outbox store from a URL, with the schemes of open_inbox_store():
//
//   memory:                    process-local, its own database
//   sqlite:///path/to/file.db  the docket_outbox table in that SQLite file
//   sqlite::memory:            a private in-memory SQLite database
//   postgresql://user@host:port/db
//                              the docket_outbox table on PostgreSQL (also postgres://)
//   dynamodb://host:port?region=r[&table_prefix=p], dynamodb://aws?region=r
//                              the <p>docket_outbox table on DynamoDB
//
// An outbox and an inbox store opened on the same SQLite file, or the same PostgreSQL
// or DynamoDB URL, share its database: an inbox handler may stage follow-up messages
// through its own transaction (on DynamoDB, in the one TransactWriteItems of its unit).
//
// Thread-safety: safe to call from many threads; the store returned is thread-safe.
#ifndef DOCKET_OPEN_OUTBOX_STORE_H_
#define DOCKET_OPEN_OUTBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/clock.h"
#include "docket/outbox_store.h"

namespace docket {

// `clock` stamps nothing in the store itself (the Outbox and Relay pass times in) but
// is kept for the units of work it opens; it must outlive the store. Throws
// ConfigurationError for an unknown or unavailable scheme, listing the schemes.
std::unique_ptr<OutboxStore> open_outbox_store(std::string_view url,
                                               const Clock& clock = SystemClock::instance());

}  // namespace docket

#endif  // DOCKET_OPEN_OUTBOX_STORE_H_
