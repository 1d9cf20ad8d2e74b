// The DynamoDB saga store against DynamoDB Local, beyond its conformance suite: the item
// as docs/dynamodb-stores.md documents it (the tenanted partition key, the saga type as sort
// key, completed_at and shard only once completed, so that the purge indexes hold
// completed sagas only), a state over DynamoDB's item limit refused before anything
// is sent, with the stored saga unchanged. Saves inside the provider's unit of work
// are the conformance suite's (handler_saga_test.cc, tests/sagas).
#include "providers/dynamodb/dynamodb_saga_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb::detail::saga_store_test {
namespace {

class DynamoDbSagaStoreTest : public ::testing::Test {
 protected:
  // The raw item under (`pk`, "checkout"), or null when there is none.
  nlohmann::json raw_item(std::string_view pk) const {
    const std::string table = client_.url().table_name(saga::kTableBase);
    const Response response =
        client_.call({.operation = "GetItem", .table = table, .replay = Replay::kSafe},
                     {{"TableName", table},
                      {"Key", {{"pk", string_value(pk)}, {"saga_type", string_value("checkout")}}},
                      {"ConsistentRead", true}});
    return response.body().value("Item", nlohmann::json());
  }

  static SagaId checkout(std::string_view id) { return SagaId(TenantId("acme"), "checkout", id); }

  test_support::DynamoDbTables tables_;
  Client client_{parse_store_url(tables_.url())};
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  DynamoDbSagaStore store_{tables_.url(), clock_};
};

TEST_F(DynamoDbSagaStoreTest, TheItemIsAsDocumentedAndOnlyACompletedSagaIsIndexed) {
  ASSERT_TRUE(store_.save(checkout("O-1"), kNewSaga, "started").succeeded());
  const nlohmann::json active = raw_item("SAGA#t:acme:O-1");
  ASSERT_FALSE(active.is_null()) << "no item under the documented key";
  EXPECT_EQ(active["tenant"], string_value("acme"));
  EXPECT_EQ(active["version"], number_value(0));
  EXPECT_EQ(active["state"], binary_value("started"));
  EXPECT_EQ(active["status"], string_value("active"));
  EXPECT_FALSE(active.contains("completed_at"));
  EXPECT_FALSE(active.contains("shard"));

  clock_.advance(std::chrono::seconds(5));
  ASSERT_TRUE(store_.save(checkout("O-1"), 0, "done", SagaStatus::kCompleted).succeeded());
  const nlohmann::json completed = raw_item("SAGA#t:acme:O-1");
  EXPECT_EQ(completed["status"], string_value("completed"));
  EXPECT_EQ(completed["started_at"], active["started_at"]);
  EXPECT_EQ(completed["completed_at"], completed["updated_at"]);
  ASSERT_TRUE(completed.contains("shard"));
  const std::int64_t shard = std::stoll(completed["shard"]["N"].get<std::string>());
  EXPECT_GE(shard, 0);
  EXPECT_LT(shard, 16);
}

TEST_F(DynamoDbSagaStoreTest, AStateOverTheItemLimitIsRefusedAndWritesNothing) {
  const std::string huge(kMaxItemBytes, 's');
  EXPECT_THROW(store_.save(checkout("O-1"), kNewSaga, huge), InvalidInputError);
  EXPECT_FALSE(store_.load(checkout("O-1")).has_value());

  ASSERT_TRUE(store_.save(checkout("O-1"), kNewSaga, "small").succeeded());
  try {
    store_.save(checkout("O-1"), 0, huge);
    FAIL() << "no refusal";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("409600"), std::string::npos) << e.what();
  }
  const auto kept = store_.load(checkout("O-1"));
  ASSERT_TRUE(kept.has_value());
  EXPECT_EQ(kept->version, 0);
  EXPECT_EQ(kept->state, "small");
}

}  // namespace
}  // namespace docket::dynamodb::detail::saga_store_test
