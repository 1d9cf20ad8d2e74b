#include "providers/sqlite/sqlite_eventsourcing_schema.h"

#include <array>

#include "docket/eventsourcing/eventsourcing_schema.h"
#include "providers/sqlite/sqlite_migration.h"

namespace docket::sqlite::detail {
namespace {

// Version 1. Times are Unix microseconds (UTC); payloads and saga states are BLOBs
// (opaque bytes); an empty lineage id or an absent trace context is NULL.
//
// docket_events: global_position is the rowid, and AUTOINCREMENT makes it strictly
// increasing even if the highest rows were ever deleted, so a consumer's checkpoint
// is never overtaken by a reused position. SQLite allows one primary key, so the
// stream key (tenant, aggregate_type, aggregate_id, version) is a UNIQUE constraint:
// the final guard against two events with one version in a stream. Its index also
// serves load() and the version check (MAX(version) of a stream). The tenant index
// serves read_all for one tenant.
constexpr const char* kEventSourcingVersion1 = R"sql(
CREATE TABLE IF NOT EXISTS docket_events (
  global_position INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant TEXT NOT NULL,
  aggregate_type TEXT NOT NULL,
  aggregate_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload BLOB NOT NULL,
  correlation_id TEXT,
  causation_id TEXT,
  traceparent TEXT,
  tracestate TEXT,
  occurred_at INTEGER NOT NULL,
  UNIQUE (tenant, aggregate_type, aggregate_id, version)
);
CREATE INDEX IF NOT EXISTS docket_events_tenant_position
  ON docket_events (tenant, global_position);
CREATE TABLE IF NOT EXISTS docket_snapshots (
  tenant TEXT NOT NULL,
  aggregate_type TEXT NOT NULL,
  aggregate_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  payload BLOB NOT NULL,
  taken_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, aggregate_type, aggregate_id)
);
CREATE TABLE IF NOT EXISTS docket_sagas (
  tenant TEXT NOT NULL,
  saga_type TEXT NOT NULL,
  saga_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  state BLOB NOT NULL,
  completed INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  completed_at INTEGER,
  PRIMARY KEY (tenant, saga_type, saga_id)
);
CREATE INDEX IF NOT EXISTS docket_sagas_completed_at
  ON docket_sagas (completed_at) WHERE completed_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS docket_sagas_tenant_completed_at
  ON docket_sagas (tenant, completed_at) WHERE completed_at IS NOT NULL;
)sql";

// Versions 2 to 4 changed PostgreSQL only (its append, saga-save and watermark
// functions); SQLite keeps one version number with every provider, so that a release
// writes one version.
constexpr const char* kEventSourcingVersion2 = "SELECT 1;";
constexpr const char* kEventSourcingVersion3 = "SELECT 1;";
constexpr const char* kEventSourcingVersion4 = "SELECT 1;";

// Version 5: the active sagas in key order, for the saga listing (kit/saga_listing.h):
// a partial index, so that listing the active sagas reads only those, however many
// completed ones are kept until purged.
constexpr const char* kEventSourcingVersion5 = R"sql(
CREATE INDEX IF NOT EXISTS docket_sagas_active
  ON docket_sagas (tenant, saga_type, saga_id) WHERE completed_at IS NULL;
)sql";

// Version 6 changed PostgreSQL only (its appends notify feed consumers).
constexpr const char* kEventSourcingVersion6 = "SELECT 1;";

constexpr std::array<const char*, 6> kEventSourcingMigrations{
    kEventSourcingVersion1, kEventSourcingVersion2, kEventSourcingVersion3,
    kEventSourcingVersion4, kEventSourcingVersion5, kEventSourcingVersion6};
static_assert(kEventSourcingMigrations.size() == kEventSourcingSchemaVersion,
              "one migration script per event sourcing schema version");

}  // namespace

void migrate_eventsourcing_schema(Connection& connection) {
  migrate_component(connection,
                    SchemaComponent{kEventSourcingSchemaComponent, kEventSourcingMigrations});
}

}  // namespace docket::sqlite::detail
