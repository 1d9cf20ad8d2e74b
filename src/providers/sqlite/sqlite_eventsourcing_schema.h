// The SQLite schema of the event, snapshot and saga stores (component
// "eventsourcing" in docket_schema_version), migrated by sqlite_migration.h.
//
// Thread-safety: uses only the connection passed in.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_EVENTSOURCING_SCHEMA_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_EVENTSOURCING_SCHEMA_H_

#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {

// Creates docket_events, docket_snapshots and docket_sagas when absent and records
// kEventSourcingSchemaVersion. Throws ConfigurationError when the database holds a
// newer version.
void migrate_eventsourcing_schema(Connection& connection);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_EVENTSOURCING_SCHEMA_H_
