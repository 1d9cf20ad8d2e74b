// The outbox schema's migration on SQLite: a database at version 1 (before routing) is
// brought to the current version, and a row staged before it still claims and completes,
// its destination empty so that destination_of() gives its event type; a lease held at
// the upgrade to version 3 (leases as runs) is kept.
#include <gtest/gtest.h>

#include <chrono>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/outbox/outbox_schema.h"
#include "docket/sqlite/store.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_migration.h"
#include "providers/sqlite/sqlite_outbox_schema.h"

namespace docket::sqlite::detail {
namespace {

TEST(SqliteOutboxMigration, AVersionOneDatabaseIsMigratedAndItsRowsStillRelay) {
  conformance::eventsourcing::TempDir dir;
  const std::string path = dir.file("outbox.db");
  const std::string id = Uuid::v7().to_string();
  {
    Connection v1(path, std::chrono::seconds(5));
    migrate_component(v1, SchemaComponent{kOutboxSchemaComponent, outbox_migrations().first(1)});
    v1.exec(
        "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, traceparent, "
        "tracestate, created_at, status, attempts, next_attempt_at) "
        "VALUES (?1, '__untenanted__', 'OrderPlaced', '{}', 0, '', '', 0, 0, 0, 0)",
        {id});
  }
  auto store = open_outbox_store({.path = path});
  store->migrate();
  {
    Connection check(path, std::chrono::seconds(5));
    EXPECT_EQ(check.query("SELECT version FROM docket_schema_version WHERE component = 'outbox'"),
              (std::vector<Row>{{kSqliteOutboxSchemaVersion}}));
  }
  const Timestamp now{std::chrono::seconds(1)};
  const auto claimed = store->claim("relay", now, now + std::chrono::seconds(30), 10);
  ASSERT_EQ(claimed.size(), 1U);
  EXPECT_EQ(claimed[0].id, id);
  EXPECT_EQ(claimed[0].destination, "");
  EXPECT_EQ(destination_of(claimed[0]), "OrderPlaced");
  EXPECT_EQ(claimed[0].ordering_key, std::nullopt);
  EXPECT_TRUE(claimed[0].headers.empty());
  EXPECT_TRUE(store->complete(id, "relay", now));
  EXPECT_EQ(store->find(id)->status, OutboxStatus::kDone);
}

// Version 3 moved the leases into runs: a row a relay held when the database was
// upgraded is still that relay's to mark, and no other relay's to take.
TEST(SqliteOutboxMigration, ALeaseHeldAtTheUpgradeToVersionThreeIsKept) {
  conformance::eventsourcing::TempDir dir;
  const std::string path = dir.file("outbox.db");
  const std::string held = Uuid::v7().to_string();
  const std::string free = Uuid::v7().to_string();
  const Timestamp now = SystemClock::instance().now();
  {
    Connection v2(path, std::chrono::seconds(5));
    migrate_component(v2, SchemaComponent{kOutboxSchemaComponent, outbox_migrations().first(2)});
    for (const std::string& id : {held, free}) {
      v2.exec(
          "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, traceparent, "
          "tracestate, created_at, status, attempts, next_attempt_at) "
          "VALUES (?1, '__untenanted__', 'OrderPlaced', '{}', 0, '', '', 0, 0, 0, 0)",
          {id});
    }
    v2.exec("UPDATE docket_outbox SET lease_token = 'relay-old', lease_until = ?2 WHERE id = ?1",
            {held, kit::to_micros(now + std::chrono::seconds(60))});
  }
  auto store = open_outbox_store({.path = path});
  store->migrate();
  const auto claimed = store->claim("relay-new", now, now + std::chrono::seconds(30), 10);
  ASSERT_EQ(claimed.size(), 1U);
  EXPECT_EQ(claimed[0].id, free);
  EXPECT_FALSE(store->complete(held, "relay-new", now));
  EXPECT_TRUE(store->complete(held, "relay-old", now));
  EXPECT_TRUE(store->complete(free, "relay-new", now));
}

}  // namespace
}  // namespace docket::sqlite::detail
