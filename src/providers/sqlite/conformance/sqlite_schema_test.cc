// The event sourcing schema on SQLite: its own component in docket_schema_version,
// beside the inbox's in one database file; a newer version is refused by every store
// that needs it, and leaves the inbox usable.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/core/error.h"
#include "docket/eventsourcing/eventsourcing_schema.h"
#include "docket/outbox/outbox_schema.h"
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/snapshot_store.h"
#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"
#include "providers/sqlite/sqlite_outbox_schema.h"

namespace docket::conformance::eventsourcing::sqlite_schema_test {
namespace {

std::vector<sqlite::Row> query(InboxStore& inbox, const std::string& sql) {
  auto unit = inbox.begin();
  return dynamic_cast<sqlite::Transaction&>(unit->handler_transaction()).query(sql);
}

void exec(InboxStore& inbox, const std::string& sql) {
  auto unit = inbox.begin();
  dynamic_cast<sqlite::Transaction&>(unit->handler_transaction()).exec(sql);
  unit->commit();
}

TEST(SqliteEventSourcingSchema, OneFileHoldsTheInboxAndTheEventSourcingComponents) {
  // The inbox store's migration also brings the outbox component, so that handlers can
  // stage outgoing messages in the file they were opened on.
  TempDir dir;
  const sqlite::StoreOptions options{.path = dir.file("app.db")};
  auto inbox = sqlite::open_store(options);
  auto events = sqlite::open_event_store(options);
  auto again = sqlite::open_event_store(options);  // migrating twice changes nothing
  auto sagas = sqlite::open_saga_store(options);
  EXPECT_EQ(query(*inbox, "SELECT component, version FROM docket_schema_version ORDER BY 1"),
            (std::vector<sqlite::Row>{
                {std::string("eventsourcing"), kEventSourcingSchemaVersion},
                {std::string("inbox"), std::int64_t{1}},
                {std::string("outbox"), sqlite::detail::kSqliteOutboxSchemaVersion}}));
  EXPECT_EQ(query(*inbox,
                  "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'docket_%' "
                  "ORDER BY 1"),
            (std::vector<sqlite::Row>{{std::string("docket_consumer_checkpoints")},
                                      {std::string("docket_events")},
                                      {std::string("docket_inbox_messages")},
                                      {std::string("docket_outbox")},
                                      {std::string("docket_outbox_leases")},
                                      {std::string("docket_sagas")},
                                      {std::string("docket_schema_version")},
                                      {std::string("docket_snapshots")}}));
}

TEST(SqliteEventSourcingSchema, ANewerVersionIsRefusedByEveryStoreAndTheInboxStillOpens) {
  TempDir dir;
  const sqlite::StoreOptions options{.path = dir.file("app.db")};
  auto inbox = sqlite::open_store(options);
  sqlite::open_event_store(options);
  exec(*inbox, "UPDATE docket_schema_version SET version = 99 WHERE component = 'eventsourcing'");

  const std::vector<std::function<void()>> opens{
      [&] { sqlite::open_event_store(options); },
      [&] { sqlite::open_snapshot_store(options); },
      [&] { sqlite::open_saga_store(options); },
  };
  for (const auto& open : opens) {
    try {
      open();
      ADD_FAILURE() << "a newer event sourcing schema must be refused";
    } catch (const ConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find("eventsourcing schema version 99"), std::string::npos)
          << e.what();
    }
  }
  auto reopened = sqlite::open_store(options);
  EXPECT_NO_THROW(reopened->migrate());
}

TEST(SqliteEventSourcingSchema, UnusableOptionsAreRefusedNamingTheStore) {
  EXPECT_THROW(sqlite::open_event_store({.path = ""}), ConfigurationError);
  try {
    sqlite::open_saga_store({.path = ":memory:", .max_connections = 0});
    ADD_FAILURE() << "max_connections 0 must be refused";
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("SQLite saga store: max_connections is 0"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace docket::conformance::eventsourcing::sqlite_schema_test
