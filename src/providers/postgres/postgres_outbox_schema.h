// The PostgreSQL outbox schema (component "outbox" in docket_schema_version): the table
// docket_outbox, its sequence an identity column (never reused), with partial indexes
// for the relay's pending scan, retention of done rows and the parked list. Created in
// the first schema of the connection's search_path.
//
// Thread-safety: a constant.
#ifndef DOCKET_PROVIDERS_POSTGRES_OUTBOX_SCHEMA_H_
#define DOCKET_PROVIDERS_POSTGRES_OUTBOX_SCHEMA_H_

#include <cstdint>

#include "providers/postgres/postgres_migration.h"

namespace docket::postgres::detail {

// The version of the outbox schema this release writes on PostgreSQL.
inline constexpr std::int64_t kPostgresOutboxSchemaVersion = 2;

// Its migrations, one a version (kPostgresOutboxSchemaVersion of them).
SchemaComponent outbox_schema() noexcept;

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_OUTBOX_SCHEMA_H_
