// The PostgreSQL inbox schema (component "inbox" in docket_schema_version): the dedup
// table docket_inbox_messages, keyed (tenant, consumer_id, message_id) with an index
// on processed_at for retention, and docket_consumer_checkpoints keyed
// (tenant, consumer_id). Created in the first schema of the connection's search_path.
//
// Thread-safety: a constant.
#ifndef DOCKET_PROVIDERS_POSTGRES_INBOX_SCHEMA_H_
#define DOCKET_PROVIDERS_POSTGRES_INBOX_SCHEMA_H_

#include "providers/postgres/postgres_migration.h"

namespace docket::postgres::detail {

// Its version is kInboxSchemaVersion (docket/inbox/inbox_schema.h); a test checks they agree.
SchemaComponent inbox_schema() noexcept;

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_INBOX_SCHEMA_H_
