// What the PostgreSQL inbox store adds to the conformance suite: ids the text[] literal
// must carry unchanged, the handler wrapper's types and errors, the schema version and
// the refusals at open.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/outbox/outbox.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "docket/spi/inbox_unit.h"
#include "docket/stores/open_store.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::postgres::detail {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class PostgresInboxStoreTest : public ::testing::Test {
 protected:
  static Transaction& native(UnitOfWork& unit) {
    return dynamic_cast<Transaction&>(unit.handler_transaction());
  }

  test_support::PostgresSchema schema_;
  std::unique_ptr<InboxStore> store_ = open_inbox_store(schema_.url());
};

TEST_F(PostgresInboxStoreTest, FilterCarriesIdsWithArraySyntaxUnchanged) {
  const std::vector<std::string> ids{"a\"b", "c\\d", "e,f", "{g}", "NULL", " h ", "\xc3\xa9"};
  {
    auto unit = spi::InboxStoreAccess::begin(*store_);
    for (const std::string id : {"e,f", "NULL"}) {
      InboxRecord record;
      record.key = {"__untenanted__", "consumer", id};
      record.event_type = "t";
      ASSERT_TRUE(unit->try_record(record));
    }
    unit->commit();
  }
  EXPECT_THAT(store_->filter_unprocessed("consumer", ids),
              ElementsAre("a\"b", "c\\d", "{g}", " h ", "\xc3\xa9"));
}

TEST_F(PostgresInboxStoreTest, WrapperBindsAndReadsEveryValueType) {
  auto unit = store_->begin();
  const Bytes bytes{std::byte{0}, std::byte{0xff}};
  const auto rows = native(*unit).query(
      "SELECT $1::boolean, $2::bigint, $3::float8, $4::text, $5::bytea, $6::text, 7::int4, "
      "8::int2, 1.5::float4, 12.50::numeric",
      {true, std::int64_t{-3}, 2.25, std::string("x"), bytes, nullptr});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (Row{true, std::int64_t{-3}, 2.25, std::string("x"), bytes, nullptr,
                          std::int64_t{7}, std::int64_t{8}, 1.5, std::string("12.50")}));
}

TEST_F(PostgresInboxStoreTest, WrapperReportsUniqueViolationsWithTheTable) {
  auto unit = store_->begin();
  auto& tx = native(*unit);
  tx.exec("CREATE TABLE orders (id TEXT PRIMARY KEY)");
  EXPECT_EQ(tx.exec("INSERT INTO orders (id) VALUES ($1)", {std::string("o1")}), 1);
  try {
    tx.exec("INSERT INTO orders (id) VALUES ($1)", {std::string("o1")});
    FAIL() << "a second insert of one key must throw";
  } catch (const UniqueViolationError& error) {
    EXPECT_EQ(error.table(), "orders");
    EXPECT_THAT(error.what(), HasSubstr("23505"));
  }
}

TEST_F(PostgresInboxStoreTest, UnitOfWorkEndedThroughNativeRefusesToCommit) {
  auto unit = store_->begin();
  native(*unit).exec("COMMIT");
  EXPECT_THROW(unit->commit(), InfrastructureError);
}

TEST_F(PostgresInboxStoreTest, RecordsTheInboxSchemaVersion) {
  store_->migrate();
  store_->migrate();
  auto unit = store_->begin();
  const auto rows =
      native(*unit).query("SELECT version FROM docket_schema_version WHERE component = $1",
                          {std::string(kInboxSchemaComponent)});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0][0], Value(kInboxSchemaVersion));
}

TEST_F(PostgresInboxStoreTest, InboxUnitOfWorkStagesIntoTheOutboxOfTheSameDatabase) {
  auto feed = docket::open_outbox_store(schema_.url());
  Outbox outbox(*feed);
  {
    auto unit = store_->begin();
    outbox.stage(unit->handler_transaction(), {.event_type = "Billed", .payload = "{}"});
  }  // rolled back with the unit
  EXPECT_TRUE(feed->read_feed(0, 10).empty());
  auto unit = store_->begin();
  const auto id =
      outbox.stage(unit->handler_transaction(), {.event_type = "Billed", .payload = "{}"});
  unit->commit();
  const auto rows = feed->read_feed(0, 10);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].id, id.to_string());
}

TEST(PostgresStoreOptionsTest, RefusesBadOptionsAtOpen) {
  EXPECT_THROW(open_store(StoreOptions{.conninfo = "host=localhost", .max_connections = 0}),
               ConfigurationError);
  EXPECT_THROW(open_store(std::string("host=localhost no_such_setting=1")), ConfigurationError);
  EXPECT_THROW(open_inbox_store("postgresx://localhost/db"), ConfigurationError);
}

}  // namespace
}  // namespace docket::postgres::detail
