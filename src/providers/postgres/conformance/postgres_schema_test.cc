// The event sourcing schema on PostgreSQL: its own component in docket_schema_version,
// beside the inbox's in one schema; a newer version is refused by every store that
// needs it, and leaves the inbox usable.
#include "support/postgres_schema.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "docket/error.h"
#include "docket/postgres/event_store.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/snapshot_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"

namespace docket::conformance::eventsourcing::postgres_schema_test {
namespace {

using test_support::PostgresSchema;

std::vector<postgres::Row> query(InboxStore& inbox, const std::string& sql) {
  auto unit = inbox.begin();
  return dynamic_cast<postgres::Transaction&>(unit->handler_transaction()).query(sql);
}

void exec(InboxStore& inbox, const std::string& sql) {
  auto unit = inbox.begin();
  dynamic_cast<postgres::Transaction&>(unit->handler_transaction()).exec(sql);
  unit->commit();
}

TEST(PostgresEventSourcingSchema, OneSchemaHoldsTheInboxAndTheEventSourcingComponents) {
  PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  auto events = postgres::open_event_store({.conninfo = schema.url()});
  auto again = postgres::open_event_store({.conninfo = schema.url()});  // changes nothing
  auto sagas = postgres::open_saga_store({.conninfo = schema.url()});
  auto snapshots = postgres::open_snapshot_store({.conninfo = schema.url()});
  EXPECT_EQ(query(*inbox, "SELECT component, version::int8 FROM docket_schema_version ORDER BY 1"),
            (std::vector<postgres::Row>{{std::string("eventsourcing"), std::int64_t{2}},
                                        {std::string("inbox"), std::int64_t{1}},
                                        {std::string("outbox"), std::int64_t{1}}}));
  EXPECT_EQ(query(*inbox,
                  "SELECT table_name::text FROM information_schema.tables "
                  "WHERE table_schema = current_schema() AND table_name LIKE 'docket%' "
                  "ORDER BY 1"),
            (std::vector<postgres::Row>{{std::string("docket_consumer_checkpoints")},
                                        {std::string("docket_events")},
                                        {std::string("docket_inbox_messages")},
                                        {std::string("docket_outbox")},
                                        {std::string("docket_sagas")},
                                        {std::string("docket_schema_version")},
                                        {std::string("docket_snapshots")}}));
}

TEST(PostgresEventSourcingSchema, ANewerVersionIsRefusedByEveryStoreAndTheInboxStillOpens) {
  PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  postgres::open_event_store({.conninfo = schema.url()});
  exec(*inbox, "UPDATE docket_schema_version SET version = 99 WHERE component = 'eventsourcing'");

  const std::vector<std::function<void()>> opens{
      [&] { postgres::open_event_store({.conninfo = schema.url()}); },
      [&] { postgres::open_snapshot_store({.conninfo = schema.url()}); },
      [&] { postgres::open_saga_store({.conninfo = schema.url()}); },
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
  EXPECT_EQ(query(*inbox,
                  "SELECT version::int8 FROM docket_schema_version "
                  "WHERE component = 'eventsourcing'"),
            (std::vector<postgres::Row>{{std::int64_t{99}}}));
  auto reopened = postgres::open_store(schema.url());
  EXPECT_NO_THROW(reopened->migrate());
}

// Version 2 adds the one-statement append and saga save. A schema left at version 1
// (its functions absent, its events and sagas kept) is brought to version 2 by the
// next store that opens it, and the stores then append and save in it.
TEST(PostgresEventSourcingSchema, AVersionOneSchemaIsMigratedAndKeepsItsData) {
  PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  const StreamId stream(TenantId("acme"), "account", "a-1");
  const SagaId saga(TenantId("acme"), "shipping", "s-1");
  {
    auto events = postgres::open_event_store({.conninfo = schema.url()});
    ASSERT_TRUE(events->append(stream, ExpectedVersion::no_stream(), {NewEvent{.type = "opened"}})
                    .succeeded());
    auto sagas = postgres::open_saga_store({.conninfo = schema.url()});
    ASSERT_TRUE(sagas->save(saga, kNewSaga, "started").succeeded());
  }
  exec(*inbox, "DROP FUNCTION docket_append_events");
  exec(*inbox, "DROP FUNCTION docket_save_saga");
  exec(*inbox, "UPDATE docket_schema_version SET version = 1 WHERE component = 'eventsourcing'");

  auto events = postgres::open_event_store({.conninfo = schema.url()});
  auto sagas = postgres::open_saga_store({.conninfo = schema.url()});
  EXPECT_EQ(query(*inbox,
                  "SELECT version::int8 FROM docket_schema_version "
                  "WHERE component = 'eventsourcing'"),
            (std::vector<postgres::Row>{{std::int64_t{2}}}));
  const AppendResult appended =
      events->append(stream, ExpectedVersion::exactly(0),
                     {NewEvent{.type = "deposited"}, NewEvent{.type = "withdrawn"}});
  ASSERT_TRUE(appended.succeeded());
  EXPECT_EQ(appended.success().new_version, 2);
  const std::vector<RecordedEvent> loaded = events->load(stream);
  ASSERT_EQ(loaded.size(), 3u);
  EXPECT_EQ(loaded[0].type, "opened");
  EXPECT_EQ(loaded[2].type, "withdrawn");
  EXPECT_TRUE(sagas->save(saga, 0, "shipped").succeeded());
  EXPECT_EQ(sagas->load(saga)->state, "shipped");
}

}  // namespace
}  // namespace docket::conformance::eventsourcing::postgres_schema_test
