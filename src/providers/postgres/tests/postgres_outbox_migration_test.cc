// The outbox schema's migration on PostgreSQL: a schema at version 1 (before routing) is
// brought to the current version, and a row staged before it still claims and completes,
// its destination empty so that destination_of() gives its event type.
#include <gtest/gtest.h>

#include <chrono>

#include "docket/outbox/outbox_schema.h"
#include "docket/postgres/store.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_migration.h"
#include "providers/postgres/postgres_outbox_schema.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::postgres::detail {
namespace {

TEST(PostgresOutboxMigration, AVersionOneSchemaIsMigratedAndItsRowsStillRelay) {
  const test_support::PostgresSchema schema;
  const std::string id = Uuid::v7().to_string();
  {
    Connection v1(schema.url());
    const SchemaComponent current = outbox_schema();
    migrate_component(v1, SchemaComponent{current.name, current.migrations.first(1)});
    exec(v1,
         "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, traceparent, "
         "tracestate, created_at, status, attempts, next_attempt_at) "
         "VALUES ($1, '__untenanted__', 'OrderPlaced', '\\x7b7d'::bytea, now(), '', '', now(), 0, "
         "0, to_timestamp(0))",
         id);
  }
  auto store = open_outbox_store(StoreOptions{.conninfo = schema.url()});
  store->migrate();
  {
    Connection check(schema.url());
    const Result version =
        exec(check, "SELECT version FROM docket_schema_version WHERE component = 'outbox'");
    ASSERT_EQ(version.rows(), 1);
    EXPECT_EQ(version.int64(0, 0), kPostgresOutboxSchemaVersion);
  }
  const Timestamp now = SystemClock::instance().now();
  const auto claimed = store->claim("relay", now, now + std::chrono::seconds(30), 10);
  ASSERT_EQ(claimed.size(), 1U);
  EXPECT_EQ(claimed[0].id, id);
  EXPECT_EQ(claimed[0].payload, "{}");
  EXPECT_EQ(claimed[0].destination, "");
  EXPECT_EQ(destination_of(claimed[0]), "OrderPlaced");
  EXPECT_EQ(claimed[0].ordering_key, std::nullopt);
  EXPECT_TRUE(claimed[0].headers.empty());
  EXPECT_TRUE(store->complete(id, "relay", now));
  EXPECT_EQ(store->find(id)->status, OutboxStatus::kDone);
}

}  // namespace
}  // namespace docket::postgres::detail
