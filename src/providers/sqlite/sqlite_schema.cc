#include "providers/sqlite/sqlite_schema.h"

#include <string>

#include "docket/error.h"
#include "docket/inbox_schema.h"

namespace docket::sqlite::detail {
namespace {

// Version 1. Times are Unix microseconds (UTC). WITHOUT ROWID: the primary key is the
// table, so the dedup insert touches one B-tree plus the processed_at index.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE IF NOT EXISTS docket_inbox_messages (
  tenant TEXT NOT NULL,
  consumer_id TEXT NOT NULL,
  message_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  occurred_at INTEGER NOT NULL,
  processed_at INTEGER NOT NULL,
  message_source TEXT,
  causation_id TEXT,
  correlation_id TEXT,
  PRIMARY KEY (tenant, consumer_id, message_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS docket_inbox_messages_processed_at
  ON docket_inbox_messages (processed_at);
CREATE TABLE IF NOT EXISTS docket_consumer_checkpoints (
  tenant TEXT NOT NULL,
  consumer_id TEXT NOT NULL,
  position TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, consumer_id)
) WITHOUT ROWID;
)sql";

struct RollbackUnlessCommitted {
  Connection& connection;
  bool committed = false;
  ~RollbackUnlessCommitted() {
    if (!committed && connection.in_transaction()) {
      try {
        connection.exec_script("ROLLBACK");
      } catch (...) {  // the pool closes a connection left in a transaction
      }
    }
  }
};

}  // namespace

void record_schema_version(Connection& connection, const std::string& component,
                           std::int64_t version) {
  connection.exec(
      "INSERT INTO docket_schema_version (component, version) VALUES (?1, ?2) "
      "ON CONFLICT (component) DO UPDATE SET version = excluded.version",
      {component, version});
}

void migrate_schema(Connection& connection) {
  connection.exec_script("BEGIN IMMEDIATE");
  RollbackUnlessCommitted guard{connection};
  connection.exec_script(
      "CREATE TABLE IF NOT EXISTS docket_schema_version (component TEXT PRIMARY KEY, "
      "version INTEGER NOT NULL) WITHOUT ROWID");
  const std::string component(kInboxSchemaComponent);
  const auto rows = connection.query(
      "SELECT version FROM docket_schema_version WHERE component = ?1", {component});
  const std::int64_t version = rows.empty() ? 0 : std::get<std::int64_t>(rows[0].at(0));
  if (version > kInboxSchemaVersion) {
    throw ConfigurationError("SQLite database '" + connection.path() +
                             "' holds inbox schema version " + std::to_string(version) +
                             ", newer than version " + std::to_string(kInboxSchemaVersion) +
                             " this docket writes; upgrade docket before using this database");
  }
  if (version < 1) {
    connection.exec_script(kVersion1);
    record_schema_version(connection, component, kInboxSchemaVersion);
  }
  migrate_outbox_schema(connection);
  connection.exec_script("COMMIT");
  guard.committed = true;
}

}  // namespace docket::sqlite::detail
