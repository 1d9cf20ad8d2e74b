#include "providers/postgres/postgres_migration.h"

#include <string>

#include "docket/core/error.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_transaction_block.h"

namespace docket::postgres::detail {
namespace {

// One lock for every component: migrations are rare and short, and one lock keeps
// two components' scripts that touch shared objects from interleaving. The value is
// arbitrary but fixed ("docket" in ASCII).
constexpr std::int64_t kMigrationLockKey = 0x646f636b6574;

}  // namespace

void migrate_component(Connection& conn, const SchemaComponent& component) {
  TransactionBlock tx(conn);
  // CREATE ... IF NOT EXISTS on an existing object raises a NOTICE on every start;
  // keep those off the application's stderr (warnings and errors still show).
  exec_script(conn, "SET LOCAL client_min_messages = warning");
  exec(conn, "SELECT pg_advisory_xact_lock($1)", kMigrationLockKey);
  exec_script(conn,
              "CREATE TABLE IF NOT EXISTS docket_schema_version ("
              "component TEXT PRIMARY KEY, version BIGINT NOT NULL)");
  const Result current =
      exec(conn, "SELECT version FROM docket_schema_version WHERE component = $1", component.name);
  const std::int64_t version = current.rows() == 0 ? 0 : current.int64(0, 0);
  if (version > component.version()) {
    throw ConfigurationError("PostgreSQL database '" + conn.description() + "' holds " +
                             std::string(component.name) + " schema version " +
                             std::to_string(version) + ", newer than version " +
                             std::to_string(component.version()) +
                             " this docket writes; upgrade docket before using this database");
  }
  for (std::int64_t v = version; v < component.version(); ++v) {
    exec_script(conn, component.migrations[static_cast<std::size_t>(v)]);
  }
  if (version < component.version()) {
    exec(conn,
         "INSERT INTO docket_schema_version (component, version) VALUES ($1, $2) "
         "ON CONFLICT (component) DO UPDATE SET version = excluded.version",
         component.name, component.version());
  }
  tx.commit();
}

}  // namespace docket::postgres::detail
