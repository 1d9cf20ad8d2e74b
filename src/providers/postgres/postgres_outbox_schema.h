// The PostgreSQL outbox schema (component "outbox" in docket_schema_version): the table
// docket_outbox, its sequence an identity column (never reused), with partial indexes
// for the relay's pending scan, retention of done rows and the parked list. Created in
// the first schema of the connection's search_path.
//
// Thread-safety: a constant.
#ifndef DOCKET_PROVIDERS_POSTGRES_OUTBOX_SCHEMA_H_
#define DOCKET_PROVIDERS_POSTGRES_OUTBOX_SCHEMA_H_

#include "providers/postgres/postgres_migration.h"

namespace docket::postgres::detail {

// Its version is kOutboxSchemaVersion (docket/outbox/outbox_schema.h).
SchemaComponent outbox_schema() noexcept;

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_OUTBOX_SCHEMA_H_
