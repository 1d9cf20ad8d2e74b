#include "providers/postgres/postgres_outbox_schema.h"

#include <array>

#include "docket/outbox/outbox_schema.h"

namespace docket::postgres::detail {
namespace {

// [i] brings the outbox from version i to i + 1. Never edit a released script; append.
// status: 0 pending, 1 done, 2 parked. The payload is bytes (bytea), as staged.
constexpr std::array<const char*, 2> kOutboxMigrations{
    R"sql(
CREATE TABLE docket_outbox (
  sequence BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  tenant TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload BYTEA NOT NULL,
  occurred_at TIMESTAMPTZ NOT NULL,
  message_source TEXT,
  causation_id TEXT,
  correlation_id TEXT,
  traceparent TEXT NOT NULL,
  tracestate TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  status INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  lease_token TEXT,
  lease_until TIMESTAMPTZ,
  last_error TEXT,
  done_at TIMESTAMPTZ
);
CREATE INDEX docket_outbox_pending ON docket_outbox (sequence) WHERE status = 0;
CREATE INDEX docket_outbox_done ON docket_outbox (done_at) WHERE status = 1;
CREATE INDEX docket_outbox_parked ON docket_outbox (sequence) WHERE status = 2;
)sql",
    // Version 2: the route. A row staged before it has destination '' (destination_of():
    // its event type), no ordering key and no headers. headers: kit::encode_headers, a JSON
    // array of [name, value] pairs in TEXT (not jsonb, which would re-encode it; cast it to
    // read it: headers::jsonb), NULL for none. status 3: skipped. The key index holds the
    // rows that hold a key (pending or parked, with a key): claim's check for an earlier
    // row of a candidate's key reads it and nothing else.
    R"sql(
ALTER TABLE docket_outbox ADD COLUMN destination TEXT NOT NULL DEFAULT '';
ALTER TABLE docket_outbox ADD COLUMN ordering_key TEXT;
ALTER TABLE docket_outbox ADD COLUMN headers TEXT;
CREATE INDEX docket_outbox_key_held ON docket_outbox (tenant, ordering_key, sequence)
  WHERE ordering_key IS NOT NULL AND status IN (0, 2);
)sql"};

static_assert(kOutboxMigrations.size() == kPostgresOutboxSchemaVersion);

}  // namespace

SchemaComponent outbox_schema() noexcept {
  return SchemaComponent{.name = kOutboxSchemaComponent, .migrations = kOutboxMigrations};
}

}  // namespace docket::postgres::detail
