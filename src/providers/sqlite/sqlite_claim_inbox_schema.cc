#include "providers/sqlite/sqlite_claim_inbox_schema.h"

#include <array>

#include "providers/sqlite/sqlite_migration.h"

namespace docket::sqlite::detail {
namespace {

// Version 1. Times are Unix microseconds (UTC). WITHOUT ROWID: the key is the table,
// so a claim touches one B-tree plus the indexes whose columns it changes. status
// holds to_string(ClaimStatus); owner and lease_until are set while processing.
//
// Every secondary index of a WITHOUT ROWID table ends with the key, which gives
// failed_due its tie order for free. The partial indexes stay as small as the rows
// they serve: cleanup and count_cleanable read the processed ones by processed_at
// (of every tenant, or of one), failed_due the failed ones by next_attempt_at. The
// processed ones also hold status, constant as it is there: SQLite reads an index
// alone only when it holds every column the statement names, so cleanup's choice of
// rows and count_cleanable never touch the table. docket_claim_inbox_counts covers
// counts(): one index-only pass, for one tenant a range of it.
constexpr const char* kClaimInboxVersion1 = R"sql(
CREATE TABLE IF NOT EXISTS docket_claim_inbox (
  tenant TEXT NOT NULL,
  message_id TEXT NOT NULL,
  handler_type TEXT NOT NULL,
  status TEXT NOT NULL
    CHECK (status IN ('received', 'processing', 'processed', 'failed')),
  retry_count INTEGER NOT NULL,
  received_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  owner TEXT,
  lease_until INTEGER,
  processed_at INTEGER,
  last_error TEXT,
  next_attempt_at INTEGER,
  PRIMARY KEY (tenant, message_id, handler_type)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS docket_claim_inbox_processed
  ON docket_claim_inbox (processed_at, status) WHERE status = 'processed';
CREATE INDEX IF NOT EXISTS docket_claim_inbox_tenant_processed
  ON docket_claim_inbox (tenant, processed_at, status) WHERE status = 'processed';
CREATE INDEX IF NOT EXISTS docket_claim_inbox_failed
  ON docket_claim_inbox (next_attempt_at) WHERE status = 'failed';
CREATE INDEX IF NOT EXISTS docket_claim_inbox_counts
  ON docket_claim_inbox (tenant, status, received_at, next_attempt_at);
)sql";

constexpr std::array<const char*, 1> kClaimInboxMigrations{kClaimInboxVersion1};
static_assert(kClaimInboxMigrations.size() == kClaimInboxSchemaVersion,
              "one migration script per claim inbox schema version");

}  // namespace

void migrate_claim_inbox_schema(Connection& connection) {
  migrate_component(connection, SchemaComponent{kClaimInboxSchemaComponent, kClaimInboxMigrations});
}

}  // namespace docket::sqlite::detail
