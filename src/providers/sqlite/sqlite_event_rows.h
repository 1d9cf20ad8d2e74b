// The event store's SQL on an open SQLite transaction, shared by the store's own
// appends and appends inside a handler's unit of work: the version check and inserts,
// and the reads of docket_events with their rows turned back into RecordedEvents.
//
// Every function runs on the connection behind `tx` and never begins or ends its
// transaction: append_events needs one open (BEGIN IMMEDIATE, so that its version
// check is still true at commit); the reads run in the caller's transaction or as
// one autocommit statement, which sees one consistent snapshot.
//
// Thread-safety: belongs to the thread holding the connection.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_EVENT_ROWS_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_EVENT_ROWS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "docket/eventsourcing/event_store.h"
#include "docket/sqlite/transaction.h"

namespace docket::sqlite::detail {

// Checks `expected` against the stream's version as `tx` sees it and inserts
// `events` (versions and positions assigned here) under a savepoint: a conflict,
// including a unique violation on the stream key, rolls back to it and comes back as
// the result; any other failure rolls back to it and throws. Either way the caller's
// transaction holds nothing of this call unless it succeeded.
AppendResult append_events(Transaction& tx, const StreamId& stream, ExpectedVersion expected,
                           const std::vector<RecordedEvent>& events);

std::vector<RecordedEvent> load_events(Transaction& tx, const StreamId& stream,
                                       std::int64_t from_version);

// Up to `limit` events from `from_position`, of `tenant` only unless null.
ReadAllPage read_events(Transaction& tx, std::int64_t from_position, std::size_t limit,
                        const TenantId* tenant);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_EVENT_ROWS_H_
