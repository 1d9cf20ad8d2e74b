// The DynamoDB event store's legacy-key guard against DynamoDB Local: an item keyed
// without a tenant segment (written here raw, as an earlier release did) makes an
// empty load and a "no stream" append refuse, naming the table and the key, with
// nothing written; the probe runs once per store instance and never after a read that
// returned items; and its documented blind spot (a legacy item beyond the first Scan
// page is missed).
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "docket/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_event_store.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb::legacy_guard_test {
namespace {

constexpr std::string_view kLegacyKey = "account:A-1001";

class DynamoDbLegacyGuardTest : public ::testing::Test {
 protected:
  std::string table() const { return tables_.prefix() + std::string(kEventsTableBase); }

  // An event item under `key` as a release without tenant segments wrote it.
  void put_raw(std::string_view key, std::int64_t version = 0) const {
    ensure_table(client_, events_table_schema(table()));
    nlohmann::json item = event_key(key, version);
    item["event_id"] = string_value("0190a6c2-0000-7000-8000-000000000000");
    item["type"] = string_value("Opened");
    item["payload"] = binary_value("");
    item["occurred_at"] = number_value(0);
    client_.call({.operation = "PutItem", .table = table(), .replay = Replay::kSafe},
                 {{"TableName", table()}, {"Item", std::move(item)}});
  }

  // Every item's stream key, in Scan order, `limit` per page (all pages).
  std::vector<std::string> scanned(int limit = 100) const {
    Pager pager = Pager::scan(client_, {{"TableName", table()}, {"Limit", limit}});
    std::vector<std::string> keys;
    while (const auto page = pager.next_page()) {
      for (const nlohmann::json& item : *page) {
        keys.push_back(item["stream"]["S"].get<std::string>());
      }
    }
    return keys;
  }

  static StreamId account(std::string_view id) { return StreamId(TenantId("acme"), "account", id); }

  test_support::DynamoDbTables tables_;
  Client client_{parse_store_url(tables_.url())};
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
};

TEST_F(DynamoDbLegacyGuardTest, AnEmptyLoadAndANewStreamRefuseNamingTableAndKeyWritingNothing) {
  put_raw(kLegacyKey);
  DynamoDbEventStore store(tables_.url(), clock_);
  try {
    store.load(account("A-1001"));
    FAIL() << "no refusal";
  } catch (const LegacyDataError& e) {
    EXPECT_EQ(e.collection(), table());
    EXPECT_EQ(e.key(), kLegacyKey);
    const std::string message = e.what();
    EXPECT_NE(message.find("no tenant segment"), std::string::npos) << message;
    EXPECT_NE(message.find("Nothing has been modified"), std::string::npos) << message;
  }
  EXPECT_THROW(store.append(account("A-1001"), ExpectedVersion::no_stream(), {{.type = "Opened"}}),
               LegacyDataError);
  EXPECT_THROW(store.append(account("A-1001"), ExpectedVersion::any(), {{.type = "Opened"}}),
               LegacyDataError);
  EXPECT_EQ(store.legacy_probes(), 1);  // the finding is kept, not probed for again
  EXPECT_EQ(scanned(), std::vector<std::string>{std::string(kLegacyKey)});
}

TEST_F(DynamoDbLegacyGuardTest, ACleanTableIsProbedOncePerStoreAndNeverAfterItemsAreRead) {
  DynamoDbEventStore writer(tables_.url(), clock_);
  EXPECT_TRUE(writer.load(account("A-1")).empty());
  EXPECT_EQ(writer.legacy_probes(), 1);
  ASSERT_TRUE(writer.append(account("A-1"), ExpectedVersion::no_stream(), {{.type = "Opened"}})
                  .succeeded());
  EXPECT_TRUE(writer.load(account("A-2")).empty());
  EXPECT_EQ(writer.legacy_probes(), 1);

  // A read that returns items proves the table addressable: a new store never probes.
  DynamoDbEventStore reader(tables_.url(), clock_);
  EXPECT_EQ(reader.load(account("A-1")).size(), 1u);
  ASSERT_TRUE(
      reader.append(account("A-1"), ExpectedVersion::exactly(0), {{.type = "More"}}).succeeded());
  ASSERT_TRUE(
      reader.append(account("A-1"), ExpectedVersion::any(), {{.type = "More"}}).succeeded());
  EXPECT_EQ(reader.legacy_probes(), 0);
}

TEST_F(DynamoDbLegacyGuardTest, ALegacyItemBeyondTheFirstScanPageIsNotDetected) {
  // The probe reads one page of (here) one item: add tenanted streams until one of
  // them, not the legacy item, comes first in Scan order.
  put_raw("t:acme:account:first");
  put_raw(kLegacyKey);
  int streams = 0;
  while (scanned(1).front() == kLegacyKey && streams < 64) {
    put_raw("t:acme:account:S-" + std::to_string(streams++));
  }
  ASSERT_NE(scanned(1).front(), kLegacyKey) << "the legacy item stayed first in Scan order";

  DynamoDbEventStore store(tables_.url(), clock_, 1);
  EXPECT_TRUE(store.load(account("A-1001")).empty());  // the blind spot: no refusal
  EXPECT_EQ(store.legacy_probes(), 1);
  // The same table, probed a whole page deep, refuses.
  DynamoDbEventStore deep(tables_.url(), clock_);
  EXPECT_THROW(deep.load(account("A-1001")), LegacyDataError);
}

}  // namespace
}  // namespace docket::dynamodb::legacy_guard_test
