// The PostgreSQL event store's SQL on one connection, shared by the store's own
// appends and appends inside a caller's transaction: the version check and inserts,
// and the reads of docket_events turned back into RecordedEvents.
//
// append_events runs on its own or inside the caller's transaction block, never
// ending it; the reads run as autocommit statements (each sees one snapshot) or in
// the caller's transaction.
//
// Thread-safety: belongs to the thread holding the connection.
#ifndef DOCKET_PROVIDERS_POSTGRES_EVENT_ROWS_H_
#define DOCKET_PROVIDERS_POSTGRES_EVENT_ROWS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "docket/eventsourcing/event_store.h"
#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_join.h"

namespace docket::postgres::detail {

// One statement, so one round trip: it checks `expected` against the stream's version,
// announces its global positions in flight (lock tag `tag`, schema version 3's protocol
// in eventsourcing_schema.cc), draws them and inserts every event, or none. A version
// mismatch, or a concurrent appender that took the version first, comes back as a
// VersionConflict and leaves the caller's transaction usable, having written nothing (a
// lost race keeps its in-flight announcement until that transaction ends, which only
// holds read_all back); any other failure throws. The conflict's version takes a second
// statement after a lost race, and after any conflict of an append on its own, whose
// one INSERT returns no version (see kOwnAppendSql).
AppendResult append_events(Connection& conn, std::int64_t tag, const StreamId& stream,
                           ExpectedVersion expected, const std::vector<RecordedEvent>& events,
                           Joining joining);

std::vector<RecordedEvent> load_events(Connection& conn, const StreamId& stream,
                                       std::int64_t from_version);

// Up to `limit` events from `from_position` below the in-flight watermark, of `tenant`
// only unless null. `conn` must be outside a transaction block, so that the rows are
// read with a snapshot taken after the watermark.
ReadAllPage read_events(Connection& conn, std::int64_t tag, std::int64_t from_position,
                        std::size_t limit, const TenantId* tenant);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_EVENT_ROWS_H_
