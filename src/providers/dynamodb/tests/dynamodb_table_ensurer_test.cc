// The table ensurer against DynamoDB Local: create once, find it after, concurrent
// creators, a table of another shape.
#include "providers/dynamodb/dynamodb_table_ensurer.h"

#include <algorithm>
#include <barrier>
#include <thread>

#include "docket/core/error.h"
#include "dynamodb_fixture.h"

namespace docket::dynamodb::detail {
namespace dynamodb_table_ensurer_test {

using ::testing::AllOf;
using ::testing::HasSubstr;

nlohmann::json describe(const Client& client, const std::string& table) {
  return client
      .call({.operation = "DescribeTable", .table = table, .replay = Replay::kSafe},
            {{"TableName", table}})
      .body()["Table"];
}

TEST_F(DynamoDbTest, EnsuringATableCreatesItOnDemandOnceAndThenFindsIt) {
  TableSchema events = schema("events", /*sorted=*/true);
  events.global_indexes.push_back({.name = "by_feed",
                                   .partition_key = {"feed", KeyType::kString},
                                   .sort_key = KeyAttribute{"pos", KeyType::kNumber}});
  EXPECT_EQ(ensure(events), TableOrigin::kCreated);
  EXPECT_EQ(ensure(events), TableOrigin::kExisted);

  const nlohmann::json table = describe(client_, events.name);
  EXPECT_EQ(table["TableStatus"], "ACTIVE");
  EXPECT_EQ(table["BillingModeSummary"]["BillingMode"], "PAY_PER_REQUEST");
  ASSERT_EQ(table["GlobalSecondaryIndexes"].size(), 1u);
  EXPECT_EQ(table["GlobalSecondaryIndexes"][0]["IndexName"], "by_feed");
  EXPECT_EQ(schema_mismatch(events, table), std::nullopt);
}

TEST_F(DynamoDbTest, ConcurrentCreatorsOfOneTableAllSucceedAndOneCreatesIt) {
  const TableSchema inbox = schema("inbox");
  made_.push_back(inbox.name);
  constexpr int kCreators = 4;
  std::barrier start(kCreators);
  std::vector<TableOrigin> origins(kCreators);
  std::vector<std::string> errors(kCreators);
  std::vector<std::thread> threads;
  for (int i = 0; i < kCreators; ++i) {
    threads.emplace_back([&, i] {
      const Client own_client(url_);  // each creator as its own process would be
      start.arrive_and_wait();
      try {
        origins[i] = ensure_table(own_client, inbox);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(errors, std::vector<std::string>(kCreators));
  EXPECT_EQ(std::count(origins.begin(), origins.end(), TableOrigin::kCreated), 1);
  EXPECT_EQ(describe(client_, inbox.name)["TableStatus"], "ACTIVE");
}

TEST_F(DynamoDbTest, ATableOfAnotherShapeIsRefusedNamingBothShapes) {
  ensure(schema("sagas"));
  EXPECT_THAT(
      [&] { ensure_table(client_, schema("sagas", /*sorted=*/true)); },
      ::testing::ThrowsMessage<ConfigurationError>(
          AllOf(HasSubstr("DynamoDB table '" + url_.table_name("sagas") + "'"),
                HasSubstr("its primary key is pk (S) HASH, docket's is pk (S) HASH, sk (S) RANGE"),
                HasSubstr("does not alter tables"))));
}

}  // namespace dynamodb_table_ensurer_test
}  // namespace docket::dynamodb::detail
