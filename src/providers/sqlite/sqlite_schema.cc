#include "providers/sqlite/sqlite_schema.h"

#include <array>

#include "docket/inbox/inbox_schema.h"
#include "providers/sqlite/sqlite_migration.h"

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

constexpr std::array<const char*, 1> kMigrations{kVersion1};
static_assert(kMigrations.size() == kInboxSchemaVersion,
              "one migration script per inbox schema version");

}  // namespace

void migrate_schema(Connection& connection) {
  migrate_component(connection, SchemaComponent{kInboxSchemaComponent, kMigrations});
  migrate_outbox_schema(connection);
}

}  // namespace docket::sqlite::detail
