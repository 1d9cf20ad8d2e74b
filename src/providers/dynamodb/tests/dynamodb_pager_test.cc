// Paging through LastEvaluatedKey against DynamoDB Local.
#include "providers/dynamodb/dynamodb_pager.h"

#include <cstdio>

#include "docket/core/error.h"
#include "dynamodb_fixture.h"

namespace docket::dynamodb::detail {
namespace dynamodb_pager_test {

using nlohmann::json;

class DynamoDbPagerTest : public DynamoDbTest {
 protected:
  // `count` items in partition "stream", sk "000".."count-1", n = the index.
  TableSchema filled(int count) {
    const TableSchema events = schema("events", /*sorted=*/true);
    ensure(events);
    for (int i = 0; i < count; ++i) {
      char sk[16];
      std::snprintf(sk, sizeof sk, "%03d", i);
      client_.call(
          {.operation = "PutItem", .table = events.name, .replay = Replay::kSafe},
          {{"TableName", events.name},
           {"Item",
            {{"pk", {{"S", "stream"}}}, {"sk", {{"S", sk}}}, {"n", {{"N", std::to_string(i)}}}}}});
    }
    return events;
  }

  json query(const TableSchema& table, int limit) const {
    return {{"TableName", table.name},
            {"KeyConditionExpression", "pk = :pk"},
            {"ExpressionAttributeValues", {{":pk", {{"S", "stream"}}}}},
            {"Limit", limit}};
  }
};

TEST_F(DynamoDbPagerTest, FollowsLastEvaluatedKeyOverEveryPageInOrder) {
  const TableSchema events = filled(25);
  Pager pager = Pager::query(client_, query(events, 10));
  std::vector<std::size_t> sizes;
  std::vector<int> seen;
  while (std::optional<json> page = pager.next_page()) {
    sizes.push_back(page->size());
    for (const json& item : *page) {
      seen.push_back(std::stoi(item["n"]["N"].get<std::string>()));
    }
  }
  EXPECT_EQ(sizes, (std::vector<std::size_t>{10, 10, 5}));
  EXPECT_EQ(pager.pages_read(), 3);
  std::vector<int> expected(25);
  for (int i = 0; i < 25; ++i) {
    expected[i] = i;
  }
  EXPECT_EQ(seen, expected);
  EXPECT_FALSE(pager.next_page().has_value());
  EXPECT_EQ(query_all(client_, query(events, 7)).size(), 25u);
}

TEST_F(DynamoDbPagerTest, AnEmptyPageIsNotTheLastWhileAKeyRemains) {
  const TableSchema events = filled(30);
  json request = query(events, 10);
  request["FilterExpression"] = "n >= :from";
  request["ExpressionAttributeValues"][":from"] = {{"N", "25"}};
  Pager pager = Pager::query(client_, request);
  std::vector<std::size_t> sizes;
  while (std::optional<json> page = pager.next_page()) {
    sizes.push_back(page->size());
  }
  ASSERT_GE(sizes.size(), 3u);
  EXPECT_EQ(sizes[0], 0u);
  EXPECT_EQ(sizes[1], 0u);
  EXPECT_EQ(sizes[2], 5u);
}

TEST_F(DynamoDbPagerTest, RefusesARequestWithoutTableOrWithAStartKey) {
  EXPECT_THROW(Pager::query(client_, {{"KeyConditionExpression", "pk = :pk"}}), InvalidInputError);
  EXPECT_THROW(
      Pager::scan(client_, {{"TableName", "t"}, {"ExclusiveStartKey", {{"pk", {{"S", "x"}}}}}}),
      InvalidInputError);
}

}  // namespace dynamodb_pager_test
}  // namespace docket::dynamodb::detail
