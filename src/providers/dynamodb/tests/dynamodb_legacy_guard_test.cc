// The DynamoDB event store's legacy-key guard against DynamoDB Local: the document
// providers' guard cases (tests/document/legacy_guard_cases.h) on an events table under
// a prefix of the test's own, with items keyed without a tenant segment (written here
// raw, as an earlier release did: {aggregateType}:{aggregateId}); and the guard's
// documented blind spot (a legacy item beyond the first Scan page is missed).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_event_store.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_guard_table.h"

namespace docket::dynamodb::detail::legacy_guard_test {
namespace {

using document_tests::EventLegacyGuard;

constexpr std::string_view kLegacyKey = "account:A-1001";

class DynamoDbEventTable final : public DynamoDbGuardTable<EventStore, DynamoDbEventStore> {
 public:
  // An event item under `key` as a release without tenant segments wrote it.
  void put_raw(std::string_view key) const override {
    ensure_table(client_, events_table_schema(collection()));
    nlohmann::json item = event_key(key, 0);
    item["event_id"] = string_value("0190a6c2-0000-7000-8000-000000000000");
    item["type"] = string_value("Opened");
    item["payload"] = binary_value("");
    item["occurred_at"] = number_value(0);
    client_.call({.operation = "PutItem", .table = collection(), .replay = Replay::kSafe},
                 {{"TableName", collection()}, {"Item", std::move(item)}});
  }
  std::string collection() const override {
    return tables_.prefix() + std::string(kEventsTableBase);
  }

 protected:
  std::string_view key_attribute() const override { return "stream"; }
};

INSTANTIATE_TEST_SUITE_P(DynamoDb, EventLegacyGuard,
                         ::testing::Values(document_tests::EventGuardCase{
                             .make = [] { return std::make_unique<DynamoDbEventTable>(); },
                             .legacy_key = std::string(kLegacyKey),
                             .where = "DynamoDB table",
                             .record = "event item"}));

TEST(DynamoDbLegacyGuardTest, ALegacyItemBeyondTheFirstScanPageIsNotDetected) {
  const DynamoDbEventTable table;
  ASSERT_NO_FATAL_FAILURE(table.bury_legacy_item(kLegacyKey, "t:acme:account:"));
  const StreamId legacy(TenantId("acme"), "account", "A-1001");
  DynamoDbEventStore store(table.url(), table.clock_, 1);
  EXPECT_TRUE(store.load(legacy).empty());  // the blind spot: no refusal
  EXPECT_EQ(store.legacy_probes(), 1);
  // The same table, probed a whole page deep, refuses.
  DynamoDbEventStore deep(table.url(), table.clock_);
  EXPECT_THROW(deep.load(legacy), LegacyDataError);
}

}  // namespace
}  // namespace docket::dynamodb::detail::legacy_guard_test
