// The event sourcing tables on PostgreSQL (docket/eventsourcing/eventsourcing_schema.h) and the two
// functions that keep read_all safe from late commits (see docs/eventsourcing.md,
// "PostgreSQL: positions in flight").
//
// Thread-safety: events_lock_tag uses only the connection passed in.
#ifndef DOCKET_PROVIDERS_POSTGRES_EVENTSOURCING_SCHEMA_H_
#define DOCKET_PROVIDERS_POSTGRES_EVENTSOURCING_SCHEMA_H_

#include <cstdint>

#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_migration.h"

namespace docket::postgres::detail {

// The "eventsourcing" component (its scripts are static), created in the
// connection's schema (search_path) by migrate_component / Database.
SchemaComponent eventsourcing_schema_component() noexcept;

// The tag that names this schema's docket_events in advisory lock keys: the low 23
// bits of the table's oid. Two tables sharing a tag only make each other's read_all
// wait for the other's in-flight appends, never skip one.
std::int64_t events_lock_tag(Connection& conn);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_EVENTSOURCING_SCHEMA_H_
