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

#include "docket/event_store.h"
#include "providers/postgres/connection.h"
#include "providers/postgres/join.h"

namespace docket::postgres {

// One statement, so one round trip: docket_append_events (eventsourcing_schema.cc)
// checks `expected` against the stream's version, draws global positions (announcing
// them in flight with the lock tag `tag`) and inserts every event. A version mismatch,
// or a unique violation on the stream key (a concurrent appender won), comes back as a
// VersionConflict and leaves the caller's transaction usable, holding nothing of this
// call; any other failure throws.
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

}  // namespace docket::postgres

#endif  // DOCKET_PROVIDERS_POSTGRES_EVENT_ROWS_H_
