// The SQLite schema (inbox, checkpoints, outbox) and its migration. Idempotent and safe to run from
// many connections and processes at once (it runs under BEGIN IMMEDIATE).
//
// Thread-safety: uses only the connection passed in.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_SCHEMA_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_SCHEMA_H_

#include <cstdint>
#include <string>

#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {

// Creates the tables when absent and records kInboxSchemaVersion and
// kSqliteOutboxSchemaVersion. Throws ConfigurationError when the database holds a newer
// schema version of either component.
void migrate_schema(Connection& connection);

// The outbox component alone (its own transaction). migrate_schema() runs it too, so
// that one file opened by an inbox store can take outbox messages staged by handlers.
void migrate_outbox_schema(Connection& connection);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_SCHEMA_H_
