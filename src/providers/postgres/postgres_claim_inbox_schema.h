// The PostgreSQL claim inbox schema (component "claim_inbox" in docket_schema_version):
// the table docket_claim_inbox, one row per (tenant, message_id, handler_type), created
// in the first schema of the connection's search_path, beside the other stores' tables.
//
// The key columns are COLLATE "C", so that the primary key's order (the order of
// ClaimInboxStore::entries) is byte order on every server, whatever its locale. Partial
// indexes keep the admin paths off the bulk of processed rows: cleanup and the processed
// count (processed rows by processed_at, for all tenants and per tenant), failed_due
// (failed rows by next_attempt_at, then key) and the pending counts with the oldest
// pending entry (rows not processed, by tenant and received_at).
//
// Thread-safety: constants.
#ifndef DOCKET_PROVIDERS_POSTGRES_CLAIM_INBOX_SCHEMA_H_
#define DOCKET_PROVIDERS_POSTGRES_CLAIM_INBOX_SCHEMA_H_

#include "docket/inbox/claim_inbox_schema.h"
#include "providers/postgres/postgres_migration.h"

namespace docket::postgres::detail {

SchemaComponent claim_inbox_schema() noexcept;

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_CLAIM_INBOX_SCHEMA_H_
