// The event sourcing schema on PostgreSQL: its own component in docket_schema_version,
// beside the inbox's in one schema; a newer version is refused by every store that
// needs it, and leaves the inbox usable.
#include "providers/postgres/tests/postgres_schema.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/eventsourcing/eventsourcing_schema.h"
#include "docket/outbox/outbox_schema.h"
#include "docket/postgres/event_store.h"
#include "docket/postgres/saga_store.h"
#include "docket/postgres/snapshot_store.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "providers/postgres/conformance/postgres_unit_sql.h"
#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_eventsourcing_schema.h"
#include "providers/postgres/postgres_migration.h"
#include "providers/postgres/postgres_outbox_schema.h"

namespace docket::conformance::eventsourcing::postgres_schema_test {
namespace {

using test_support::PostgresSchema;

TEST(PostgresEventSourcingSchema, OneSchemaHoldsTheInboxAndTheEventSourcingComponents) {
  PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  auto events = postgres::open_event_store({.conninfo = schema.url()});
  auto again = postgres::open_event_store({.conninfo = schema.url()});  // changes nothing
  auto sagas = postgres::open_saga_store({.conninfo = schema.url()});
  auto snapshots = postgres::open_snapshot_store({.conninfo = schema.url()});
  EXPECT_EQ(query_in_unit(*inbox,
                          "SELECT component, version::int8 FROM docket_schema_version ORDER BY 1"),
            (std::vector<postgres::Row>{
                {std::string("eventsourcing"), kEventSourcingSchemaVersion},
                {std::string("inbox"), std::int64_t{1}},
                {std::string("outbox"), postgres::detail::kPostgresOutboxSchemaVersion}}));
  EXPECT_EQ(query_in_unit(*inbox,
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
  exec_in_unit(*inbox,
               "UPDATE docket_schema_version SET version = 99 WHERE component = 'eventsourcing'");

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
  EXPECT_EQ(query_in_unit(*inbox,
                          "SELECT version::int8 FROM docket_schema_version "
                          "WHERE component = 'eventsourcing'"),
            (std::vector<postgres::Row>{{std::int64_t{99}}}));
  auto reopened = postgres::open_store(schema.url());
  EXPECT_NO_THROW(reopened->migrate());
}

// Version 2 adds the one-statement append and saga save. A schema left at version 1
// (its functions absent, its events and sagas kept) is brought to the current version by the
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
  exec_in_unit(*inbox, "DROP FUNCTION docket_append_events");
  exec_in_unit(*inbox, "DROP FUNCTION docket_save_saga");
  exec_in_unit(*inbox,
               "UPDATE docket_schema_version SET version = 1 WHERE component = 'eventsourcing'");

  auto events = postgres::open_event_store({.conninfo = schema.url()});
  auto sagas = postgres::open_saga_store({.conninfo = schema.url()});
  EXPECT_EQ(query_in_unit(*inbox,
                          "SELECT version::int8 FROM docket_schema_version "
                          "WHERE component = 'eventsourcing'"),
            (std::vector<postgres::Row>{{kEventSourcingSchemaVersion}}));
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

// An append as a store of schema version 2 makes it: docket_append_events, in the
// caller's transaction.
std::vector<postgres::Row> append_as_version_two(InboxStore& inbox, const std::string& key,
                                                 std::int64_t expected, int events) {
  auto unit = inbox.begin();
  auto& tx = dynamic_cast<postgres::Transaction&>(unit->handler_transaction());
  const std::string n = std::to_string(events);
  std::vector<postgres::Row> rows = tx.query(
      "SELECT out_version, out_position FROM docket_append_events("
      "(SELECT 'docket_events'::regclass::oid::int8 & 8388607), 'acme', 'account', '" +
      key + "', " + std::to_string(expected) +
      ", ARRAY(SELECT gen_random_uuid() FROM generate_series(1, " + n +
      ")), array_fill('v2'::text, ARRAY[" + n + "]), array_fill('\\x00'::bytea, ARRAY[" + n +
      "]), array_fill(NULL::text, ARRAY[" + n + "]), array_fill(NULL::text, ARRAY[" + n +
      "]), array_fill(NULL::text, ARRAY[" + n + "]), array_fill(NULL::text, ARRAY[" + n +
      "]), array_fill(0::int8, ARRAY[" + n + "]))");
  unit->commit();
  return rows;
}

// Version 3 moves the append into one prepared statement and read_all's watermark to
// announce-before-draw, replacing the functions of version 2 in place. A schema made by
// version 2's scripts, with events appended through its function, is brought to the
// current version by the next store; that store appends after those events with the
// expected-version check intact, a version 2 store's call still appends (and conflicts)
// correctly beside it, and read_all returns every event once, in position order.
TEST(PostgresEventSourcingSchema, AVersionTwoSchemaIsMigratedAndKeepsAppending) {
  PostgresSchema schema;
  auto inbox = postgres::open_store(schema.url());
  inbox->migrate();
  {
    postgres::detail::Connection conn(schema.url());
    const postgres::detail::SchemaComponent current =
        postgres::detail::eventsourcing_schema_component();
    postgres::detail::migrate_component(
        conn, postgres::detail::SchemaComponent{current.name, current.migrations.first(2)});
  }
  ASSERT_EQ(query_in_unit(*inbox,
                          "SELECT version::int8 FROM docket_schema_version "
                          "WHERE component = 'eventsourcing'"),
            (std::vector<postgres::Row>{{std::int64_t{2}}}));
  ASSERT_EQ(append_as_version_two(*inbox, "a-1", -1, 2).size(), 2u);

  auto events = postgres::open_event_store({.conninfo = schema.url()});
  EXPECT_EQ(query_in_unit(*inbox,
                          "SELECT version::int8 FROM docket_schema_version "
                          "WHERE component = 'eventsourcing'"),
            (std::vector<postgres::Row>{{kEventSourcingSchemaVersion}}));
  const StreamId stream(TenantId("acme"), "account", "a-1");
  const AppendResult stale =
      events->append(stream, ExpectedVersion::exactly(0), {NewEvent{.type = "deposited"}});
  ASSERT_FALSE(stale.succeeded());
  EXPECT_EQ(stale.conflict().actual_version, 1);
  const AppendResult appended =
      events->append(stream, ExpectedVersion::exactly(1),
                     {NewEvent{.type = "deposited"}, NewEvent{.type = "withdrawn"}});
  ASSERT_TRUE(appended.succeeded());
  EXPECT_EQ(appended.success().new_version, 3);
  // A store still at version 2 beside it: a stale call is a conflict, a fresh one appends.
  EXPECT_EQ(append_as_version_two(*inbox, "a-1", 1, 1),
            (std::vector<postgres::Row>{{std::int64_t{3}, nullptr}}));
  const std::vector<postgres::Row> late = append_as_version_two(*inbox, "a-1", 3, 1);
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0][0], postgres::Value(std::int64_t{4}));

  const std::vector<RecordedEvent> loaded = events->load(stream);
  ASSERT_EQ(loaded.size(), 5u);
  EXPECT_EQ(loaded[0].type, "v2");
  EXPECT_EQ(loaded[2].type, "deposited");
  EXPECT_EQ(loaded[3].type, "withdrawn");
  EXPECT_EQ(loaded[4].type, "v2");
  const ReadAllPage page = events->read_all(0, 100);
  ASSERT_EQ(page.events.size(), 5u);
  for (std::size_t i = 0; i < page.events.size(); ++i) {
    EXPECT_EQ(page.events[i].version, static_cast<std::int64_t>(i));
    if (i > 0) {
      EXPECT_LT(page.events[i - 1].global_position, page.events[i].global_position);
    }
  }
  EXPECT_EQ(page.next_position, page.events.back().global_position + 1);
}

}  // namespace
}  // namespace docket::conformance::eventsourcing::postgres_schema_test
