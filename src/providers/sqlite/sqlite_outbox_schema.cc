// The outbox component of the SQLite schema.
#include "providers/sqlite/sqlite_outbox_schema.h"

#include <array>

#include "docket/outbox/outbox_schema.h"
#include "providers/sqlite/sqlite_migration.h"
#include "providers/sqlite/sqlite_schema.h"

namespace docket::sqlite::detail {
namespace {

// Version 1. Times are Unix microseconds (UTC). AUTOINCREMENT: a sequence is never
// reused, also after retention deleted the highest rows, so a feed position stays
// unique forever. status: 0 pending, 1 done, 2 parked.
constexpr const char* kOutboxVersion1 = R"sql(
CREATE TABLE IF NOT EXISTS docket_outbox (
  sequence INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload BLOB NOT NULL,
  occurred_at INTEGER NOT NULL,
  message_source TEXT,
  causation_id TEXT,
  correlation_id TEXT,
  traceparent TEXT NOT NULL,
  tracestate TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  status INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  lease_token TEXT,
  lease_until INTEGER,
  last_error TEXT,
  done_at INTEGER
);
CREATE INDEX IF NOT EXISTS docket_outbox_pending ON docket_outbox (sequence) WHERE status = 0;
CREATE INDEX IF NOT EXISTS docket_outbox_done ON docket_outbox (done_at) WHERE status = 1;
CREATE INDEX IF NOT EXISTS docket_outbox_parked ON docket_outbox (sequence) WHERE status = 2;
)sql";

// Version 2: the route. A row staged before it has destination '' (destination_of():
// its event type), no ordering key and no headers. headers: kit::encode_headers (a
// JSON array of [name, value] pairs; NULL for none). status 3: skipped. The key index
// holds the rows that hold a key (pending or parked, with a key): claim's check for an
// earlier row of a candidate's key reads it and nothing else.
constexpr const char* kOutboxVersion2 = R"sql(
ALTER TABLE docket_outbox ADD COLUMN destination TEXT NOT NULL DEFAULT '';
ALTER TABLE docket_outbox ADD COLUMN ordering_key TEXT;
ALTER TABLE docket_outbox ADD COLUMN headers TEXT;
CREATE INDEX docket_outbox_key_held ON docket_outbox (tenant, ordering_key, sequence)
  WHERE ordering_key IS NOT NULL AND status IN (0, 2);
)sql";

// Version 3: a relay's lease is a run of sequences in docket_outbox_leases
// (sqlite_outbox_leases.h), not two columns of each row, so that a claim writes one row
// instead of rewriting every row it takes. The leases rows held at the upgrade become
// runs of one row each, so that no live lease is lost.
constexpr const char* kOutboxVersion3 = R"sql(
CREATE TABLE docket_outbox_leases (
  first_sequence INTEGER PRIMARY KEY,
  last_sequence INTEGER NOT NULL,
  token TEXT NOT NULL,
  lease_until INTEGER NOT NULL
);
CREATE INDEX docket_outbox_leases_token ON docket_outbox_leases (token);
INSERT INTO docket_outbox_leases (first_sequence, last_sequence, token, lease_until)
  SELECT sequence, sequence, lease_token, lease_until FROM docket_outbox
  WHERE status = 0 AND lease_token IS NOT NULL AND lease_until IS NOT NULL;
ALTER TABLE docket_outbox DROP COLUMN lease_token;
ALTER TABLE docket_outbox DROP COLUMN lease_until;
)sql";

constexpr std::array<const char*, 3> kOutboxMigrations{kOutboxVersion1, kOutboxVersion2,
                                                       kOutboxVersion3};
static_assert(kOutboxMigrations.size() == kSqliteOutboxSchemaVersion,
              "one migration script per outbox schema version");

}  // namespace

std::span<const char* const> outbox_migrations() noexcept {
  return kOutboxMigrations;
}

void migrate_outbox_schema(Connection& connection) {
  migrate_component(connection, SchemaComponent{kOutboxSchemaComponent, kOutboxMigrations});
}

}  // namespace docket::sqlite::detail
