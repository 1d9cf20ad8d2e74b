#include "providers/postgres/postgres_claim_inbox_schema.h"

#include <array>

namespace docket::postgres::detail {
namespace {

// [i] brings the claim inbox from version i to i + 1. Never edit a released script;
// append. status holds to_string(ClaimStatus); times are timestamptz (timestamp_sql.h).
constexpr std::array<const char*, 2> kClaimInboxMigrations{
    R"sql(
CREATE TABLE docket_claim_inbox (
  tenant TEXT COLLATE "C" NOT NULL,
  message_id TEXT COLLATE "C" NOT NULL,
  handler_type TEXT COLLATE "C" NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('received', 'processing', 'processed', 'failed')),
  retry_count INTEGER NOT NULL CHECK (retry_count >= 0),
  received_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  owner TEXT,
  lease_until TIMESTAMPTZ,
  processed_at TIMESTAMPTZ,
  last_error TEXT,
  next_attempt_at TIMESTAMPTZ,
  PRIMARY KEY (tenant, message_id, handler_type)
);
CREATE INDEX docket_claim_inbox_processed ON docket_claim_inbox (processed_at)
  WHERE status = 'processed';
CREATE INDEX docket_claim_inbox_tenant_processed ON docket_claim_inbox (tenant, processed_at)
  WHERE status = 'processed';
CREATE INDEX docket_claim_inbox_failed ON docket_claim_inbox
  (next_attempt_at, tenant, message_id, handler_type) WHERE status = 'failed';
CREATE INDEX docket_claim_inbox_pending ON docket_claim_inbox (tenant, received_at)
  WHERE status <> 'processed';
)sql",
    // Version 2: the claim id, the fencing token's other half (ClaimToken; issue 37), set
    // with owner while processing and cleared with it. An entry written before it has
    // none: a processing one matches no token (its claimer, a docket without tokens,
    // cannot mark it) and is claimable once its lease ends, as every other entry is.
    R"sql(
ALTER TABLE docket_claim_inbox ADD COLUMN claim_id TEXT;
)sql"};

static_assert(kClaimInboxMigrations.size() == kClaimInboxSchemaVersion);

}  // namespace

SchemaComponent claim_inbox_schema() noexcept {
  return SchemaComponent{.name = kClaimInboxSchemaComponent, .migrations = kClaimInboxMigrations};
}

}  // namespace docket::postgres::detail
