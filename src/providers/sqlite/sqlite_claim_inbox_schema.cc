#include "providers/sqlite/sqlite_claim_inbox_schema.h"

#include <array>

#include "providers/sqlite/sqlite_migration.h"

namespace docket::sqlite::detail {
namespace {

// Version 1. Times are Unix microseconds (UTC). WITHOUT ROWID: the key is the table,
// so a claim touches one B-tree plus the indexes whose columns it changes. status
// holds to_string(ClaimStatus); owner and lease_until (and from version 2 claim_id) are
// set while processing.
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

// Version 2: the claim id, the fencing token's other half (ClaimToken; issue 37), set
// with owner while processing and cleared with it. An entry written before it has
// none: a processing one matches no token (its claimer, a docket without tokens, cannot
// mark it) and is claimable once its lease ends, as every other entry is.
constexpr const char* kClaimInboxVersion2 = R"sql(
ALTER TABLE docket_claim_inbox ADD COLUMN claim_id TEXT;
)sql";

constexpr std::array<const char*, 2> kClaimInboxMigrations{kClaimInboxVersion1,
                                                           kClaimInboxVersion2};
static_assert(kClaimInboxMigrations.size() == kClaimInboxSchemaVersion,
              "one migration script per claim inbox schema version");

}  // namespace

std::span<const char* const> claim_inbox_migrations() noexcept {
  return kClaimInboxMigrations;
}

void migrate_claim_inbox_schema(Connection& connection) {
  migrate_component(connection, SchemaComponent{kClaimInboxSchemaComponent, kClaimInboxMigrations});
}

}  // namespace docket::sqlite::detail
