#include "providers/sqlite/sqlite_migration.h"

#include <string>

#include "docket/core/error.h"
#include "providers/sqlite/sqlite_immediate_transaction.h"

namespace docket::sqlite::detail {

void migrate_component(Connection& connection, const SchemaComponent& component) {
  ImmediateTransaction transaction(connection);
  connection.exec_script(
      "CREATE TABLE IF NOT EXISTS docket_schema_version (component TEXT PRIMARY KEY, "
      "version INTEGER NOT NULL) WITHOUT ROWID");
  const std::string name(component.name);
  const auto rows =
      connection.query("SELECT version FROM docket_schema_version WHERE component = ?1", {name});
  const std::int64_t found = rows.empty() ? 0 : std::get<std::int64_t>(rows[0].at(0));
  const std::int64_t current = component.version();
  if (found > current) {
    throw ConfigurationError("SQLite database '" + connection.path() + "' holds " + name +
                             " schema version " + std::to_string(found) + ", newer than version " +
                             std::to_string(current) +
                             " this docket writes; upgrade docket before using this database");
  }
  if (found < current) {
    for (std::int64_t v = found; v < current; ++v) {
      connection.exec_script(component.migrations[static_cast<std::size_t>(v)]);
    }
    connection.exec(
        "INSERT INTO docket_schema_version (component, version) VALUES (?1, ?2) "
        "ON CONFLICT (component) DO UPDATE SET version = excluded.version",
        {name, current});
  }
  transaction.commit();
}

}  // namespace docket::sqlite::detail
