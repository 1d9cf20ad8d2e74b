// The DynamoDB saga store's legacy-key guard against DynamoDB Local: an item keyed
// SAGA#{sagaId}, without a tenant segment (written here raw, as an earlier release
// did), makes a load that finds nothing, a create (kNewSaga) and a save that finds no
// saga refuse, naming the table and the key, with every item untouched; the probe
// runs once per store instance and never after a read that returned the saga; and
// its documented blind spot (a legacy item beyond the first Scan page is missed).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "docket/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/dynamodb/dynamodb_saga_store.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb::saga_guard_test {
namespace {

constexpr std::string_view kLegacyKey = "SAGA#O-1001";

class DynamoDbSagaGuardTest : public ::testing::Test {
 protected:
  std::string table() const { return client_.url().table_name(saga::kTableBase); }

  // A saga item under partition key `key` as a release without tenant segments wrote it.
  nlohmann::json put_raw(std::string_view key) const {
    ensure_table(client_, saga::saga_table_schema(client_.url()));
    const nlohmann::json item = {
        {"pk", string_value(key)},        {"saga_type", string_value("checkout")},
        {"tenant", string_value("acme")}, {"version", number_value(3)},
        {"state", binary_value("paid")},  {"status", string_value("active")},
        {"started_at", number_value(1)},  {"updated_at", number_value(2)}};
    client_.call({.operation = "PutItem", .table = table(), .replay = Replay::kSafe},
                 {{"TableName", table()}, {"Item", item}});
    return item;
  }

  // Every item, in Scan order, `limit` per page (all pages).
  std::vector<nlohmann::json> scanned(int limit = 100) const {
    Pager pager = Pager::scan(client_, {{"TableName", table()}, {"Limit", limit}});
    std::vector<nlohmann::json> items;
    while (const auto page = pager.next_page()) {
      for (const nlohmann::json& item : *page) {
        items.push_back(item);
      }
    }
    return items;
  }
  std::string first_key() const { return scanned(1).front()["pk"]["S"].get<std::string>(); }

  static SagaId checkout(std::string_view id) { return SagaId(TenantId("acme"), "checkout", id); }

  test_support::DynamoDbTables tables_;
  Client client_{parse_store_url(tables_.url())};
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
};

TEST_F(DynamoDbSagaGuardTest, ALoadFindingNothingAndACreateRefuseNamingTableAndKeyWritingNothing) {
  const nlohmann::json legacy = put_raw(kLegacyKey);
  DynamoDbSagaStore store(tables_.url(), clock_);
  try {
    store.load(checkout("O-1001"));
    FAIL() << "no refusal";
  } catch (const LegacyDataError& e) {
    EXPECT_EQ(e.collection(), table());
    EXPECT_EQ(e.key(), kLegacyKey);
    const std::string message = e.what();
    EXPECT_NE(message.find("saga item"), std::string::npos) << message;
    EXPECT_NE(message.find("no tenant segment"), std::string::npos) << message;
    EXPECT_NE(message.find("Nothing has been modified"), std::string::npos) << message;
  }
  EXPECT_THROW(store.save(checkout("O-1001"), kNewSaga, "started"), LegacyDataError);
  EXPECT_THROW(store.save(checkout("O-1001"), 3, "phantom"), LegacyDataError);
  EXPECT_EQ(store.legacy_probes(), 1);  // the finding is kept, not probed for again
  EXPECT_EQ(scanned(), std::vector<nlohmann::json>{legacy});  // untouched, nothing added
}

TEST_F(DynamoDbSagaGuardTest, ACleanTableIsProbedOncePerStoreAndNeverAfterTheSagaIsRead) {
  DynamoDbSagaStore writer(tables_.url(), clock_);
  EXPECT_FALSE(writer.load(checkout("O-1")).has_value());
  EXPECT_EQ(writer.legacy_probes(), 1);
  ASSERT_TRUE(writer.save(checkout("O-1"), kNewSaga, "started").succeeded());
  EXPECT_FALSE(writer.load(checkout("O-2")).has_value());
  ASSERT_TRUE(writer.save(checkout("O-2"), kNewSaga, "started").succeeded());
  EXPECT_EQ(writer.legacy_probes(), 1);

  // A read that returns the saga proves the table addressable: a new store never probes.
  DynamoDbSagaStore reader(tables_.url(), clock_);
  ASSERT_TRUE(reader.load(checkout("O-1")).has_value());
  ASSERT_TRUE(reader.save(checkout("O-1"), 0, "paid").succeeded());
  EXPECT_TRUE(reader.save(checkout("O-1"), 0, "stale").is_conflict());  // the saga was found
  EXPECT_EQ(reader.legacy_probes(), 0);

  // A create is acting on silence even without a load before it.
  DynamoDbSagaStore creator(tables_.url(), clock_);
  ASSERT_TRUE(creator.save(checkout("O-3"), kNewSaga, "started").succeeded());
  EXPECT_EQ(creator.legacy_probes(), 1);
}

TEST_F(DynamoDbSagaGuardTest, ALegacyItemBeyondTheFirstScanPageIsNotDetected) {
  // The probe reads one page of (here) one item: add tenanted sagas until one of them,
  // not the legacy item, comes first in Scan order.
  put_raw("SAGA#t:acme:first");
  put_raw(kLegacyKey);
  int sagas = 0;
  while (first_key() == kLegacyKey && sagas < 64) {
    put_raw("SAGA#t:acme:S-" + std::to_string(sagas++));
  }
  ASSERT_NE(first_key(), kLegacyKey) << "the legacy item stayed first in Scan order";

  DynamoDbSagaStore store(tables_.url(), clock_, 1);
  EXPECT_FALSE(store.load(checkout("O-1001")).has_value());  // the blind spot: no refusal
  EXPECT_EQ(store.legacy_probes(), 1);
  // The same table, probed a whole page deep, refuses.
  DynamoDbSagaStore deep(tables_.url(), clock_);
  EXPECT_THROW(deep.load(checkout("O-1001")), LegacyDataError);
}

}  // namespace
}  // namespace docket::dynamodb::saga_guard_test
