// Versioned schema migration per component (inbox, outbox, eventsourcing, ...) on
// PostgreSQL: each component has a row (component, version) in docket_schema_version
// and an ordered list of scripts, script i bringing the component from version i to
// i + 1, so a component's current version is the number of its scripts.
//
// Idempotent and safe from many connections and processes at once: it runs in one
// transaction holding a transaction-scoped advisory lock, reads the recorded version
// and applies only the missing scripts. A database whose recorded version is newer
// than this docket knows is refused, never downgraded.
//
// Thread-safety: uses only the connection passed in, which must not be inside a
// transaction.
#ifndef DOCKET_PROVIDERS_POSTGRES_MIGRATION_H_
#define DOCKET_PROVIDERS_POSTGRES_MIGRATION_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "providers/postgres/postgres_connection.h"

namespace docket::postgres::detail {

struct SchemaComponent {
  std::string_view name;                    // its row in docket_schema_version
  std::span<const char* const> migrations;  // [i]: version i -> i + 1

  std::int64_t version() const noexcept { return static_cast<std::int64_t>(migrations.size()); }
};

// Brings `component` to its current version in one transaction. Throws
// ConfigurationError when the database holds a newer version of it, PostgresError
// when the server fails (nothing of the migration is then kept).
void migrate_component(Connection& conn, const SchemaComponent& component);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_MIGRATION_H_
