#include "providers/postgres/postgres_outbox_schema.h"

#include <array>

#include "docket/outbox/outbox_schema.h"

namespace docket::postgres::detail {
namespace {

// [i] brings the outbox from version i to i + 1. Never edit a released script; append.
// status: 0 pending, 1 done, 2 parked. The payload is bytes (bytea), as staged.
constexpr std::array<const char*, 1> kOutboxMigrations{R"sql(
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
)sql"};

static_assert(kOutboxMigrations.size() == kOutboxSchemaVersion);

}  // namespace

SchemaComponent outbox_schema() noexcept {
  return SchemaComponent{.name = kOutboxSchemaComponent, .migrations = kOutboxMigrations};
}

}  // namespace docket::postgres::detail
