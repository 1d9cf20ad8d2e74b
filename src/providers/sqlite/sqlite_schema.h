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
// kOutboxSchemaVersion. Throws ConfigurationError when the database holds a newer
// schema version of either component.
void migrate_schema(Connection& connection);

// The outbox component's part of migrate_schema(), inside its transaction.
void migrate_outbox_schema(Connection& connection);

// Upserts `component`'s row in docket_schema_version.
void record_schema_version(Connection& connection, const std::string& component,
                           std::int64_t version);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_SCHEMA_H_
