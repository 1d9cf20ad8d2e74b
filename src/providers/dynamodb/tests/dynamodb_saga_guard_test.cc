// The DynamoDB saga store's legacy-key guard against DynamoDB Local: the document
// providers' guard cases (tests/document/legacy_guard_cases.h) on a sagas table under a
// prefix of the test's own, with items keyed SAGA#{sagaId}, without a tenant segment
// (written here raw, as an earlier release did); and the guard's documented blind spot
// (a legacy item beyond the first Scan page is missed).
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/dynamodb/dynamodb_saga_store.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_guard_table.h"

namespace docket::dynamodb::detail::saga_guard_test {
namespace {

using document_tests::SagaLegacyGuard;

constexpr std::string_view kLegacyKey = "SAGA#O-1001";

class DynamoDbSagaTable final : public DynamoDbGuardTable<SagaStore, DynamoDbSagaStore> {
 public:
  // A saga item under partition key `key` as a release without tenant segments wrote it.
  void put_raw(std::string_view key) const override {
    ensure_table(client_, saga::saga_table_schema(client_.url()));
    const nlohmann::json item = {
        {"pk", string_value(key)},        {"saga_type", string_value("checkout")},
        {"tenant", string_value("acme")}, {"version", number_value(3)},
        {"state", binary_value("paid")},  {"status", string_value("active")},
        {"started_at", number_value(1)},  {"updated_at", number_value(2)}};
    client_.call({.operation = "PutItem", .table = collection(), .replay = Replay::kSafe},
                 {{"TableName", collection()}, {"Item", item}});
  }
  std::string collection() const override { return client_.url().table_name(saga::kTableBase); }

 protected:
  std::string_view key_attribute() const override { return "pk"; }
};

INSTANTIATE_TEST_SUITE_P(DynamoDb, SagaLegacyGuard,
                         ::testing::Values(document_tests::SagaGuardCase{
                             .make = [] { return std::make_unique<DynamoDbSagaTable>(); },
                             .legacy_key = std::string(kLegacyKey),
                             .where = "DynamoDB table",
                             .record = "saga item"}));

TEST(DynamoDbSagaGuardTest, ALegacyItemBeyondTheFirstScanPageIsNotDetected) {
  const DynamoDbSagaTable table;
  ASSERT_NO_FATAL_FAILURE(table.bury_legacy_item(kLegacyKey, "SAGA#t:acme:"));
  const SagaId legacy(TenantId("acme"), "checkout", "O-1001");
  DynamoDbSagaStore store(table.url(), table.clock_, 1);
  EXPECT_FALSE(store.load(legacy).has_value());  // the blind spot: no refusal
  EXPECT_EQ(store.legacy_probes(), 1);
  // The same table, probed a whole page deep, refuses.
  DynamoDbSagaStore deep(table.url(), table.clock_);
  EXPECT_THROW(deep.load(legacy), LegacyDataError);
}

}  // namespace
}  // namespace docket::dynamodb::detail::saga_guard_test
