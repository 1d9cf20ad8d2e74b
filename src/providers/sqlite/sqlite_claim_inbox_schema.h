// The SQLite schema of the claim inbox (component "claim_inbox" in
// docket_schema_version), migrated by sqlite_migration.h. The table shares the
// database file with the provider's other stores.
//
// Thread-safety: uses only the connection passed in.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_SCHEMA_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_SCHEMA_H_

#include <span>

#include "docket/inbox/claim_inbox_schema.h"
#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {

// Creates docket_claim_inbox and its indexes when absent and records the component's
// version. Throws ConfigurationError when the database holds a newer version.
void migrate_claim_inbox_schema(Connection& connection);

// The component's scripts: [i] brings it from version i to i + 1. Exposed so that a
// test can build a database at an earlier version.
std::span<const char* const> claim_inbox_migrations() noexcept;

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_CLAIM_INBOX_SCHEMA_H_
