#include "providers/postgres/postgres_inbox_schema.h"

#include <array>

#include "docket/inbox/inbox_schema.h"

namespace docket::postgres::detail {
namespace {

// [i] brings the inbox from version i to i + 1. Never edit a released script; append.
constexpr std::array<const char*, 1> kInboxMigrations{
    "CREATE TABLE docket_inbox_messages ("
    "tenant TEXT NOT NULL, consumer_id TEXT NOT NULL, message_id TEXT NOT NULL, "
    "event_type TEXT NOT NULL, occurred_at TIMESTAMPTZ NOT NULL, "
    "processed_at TIMESTAMPTZ NOT NULL, message_source TEXT, causation_id TEXT, "
    "correlation_id TEXT, PRIMARY KEY (tenant, consumer_id, message_id));"
    "CREATE INDEX docket_inbox_messages_processed_at ON docket_inbox_messages (processed_at);"
    "CREATE TABLE docket_consumer_checkpoints ("
    "tenant TEXT NOT NULL, consumer_id TEXT NOT NULL, position TEXT NOT NULL, "
    "updated_at TIMESTAMPTZ NOT NULL, PRIMARY KEY (tenant, consumer_id));"};

static_assert(kInboxMigrations.size() == kInboxSchemaVersion);

}  // namespace

SchemaComponent inbox_schema() noexcept {
  return SchemaComponent{.name = kInboxSchemaComponent, .migrations = kInboxMigrations};
}

}  // namespace docket::postgres::detail
