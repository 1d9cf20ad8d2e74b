// The SQLite inbox schema and its migration. Idempotent and safe to run from many
// connections and processes at once (it runs under BEGIN IMMEDIATE).
//
// Thread-safety: uses only the connection passed in.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_SCHEMA_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_SCHEMA_H_

#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {

// Creates the tables when absent and records kInboxSchemaVersion. Throws
// ConfigurationError when the database holds a newer schema version.
void migrate_schema(Connection& connection);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_SCHEMA_H_
