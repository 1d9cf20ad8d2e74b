// The Cosmos DB client and item operations against the test server: request charges are
// read, conditional writes are outcomes (409, 412) that write nothing, containers are
// created once, and a server that is down is a clear error, not a hang.
#include "providers/cosmos/cosmos_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class CosmosClientTest : public ::testing::Test {
 protected:
  CosmosClientTest() : client_(parse_store_url(database_.url())) {
    client_.ensure_container("things", "/id");
  }
  ItemAddress at(std::string_view id) const {
    return {.container = "things", .id = id, .partition_key = id};
  }

  test_support::CosmosDatabase database_;
  Client client_;
};

TEST_F(CosmosClientTest, AddsUpTheRequestChargeOfEveryAnswer) {
  const double before = client_.request_units();
  ASSERT_TRUE(create_item(client_, at("a"), {{"id", "a"}, {"n", 1}}).has_value());
  ASSERT_TRUE(read_item(client_, at("a")).has_value());
  // The test server charges 1 unit per request, as x-ms-request-charge says.
  EXPECT_DOUBLE_EQ(client_.request_units() - before, 2.0);
}

TEST_F(CosmosClientTest, ConditionalWritesWriteNothingWhenTheirConditionFails) {
  const std::optional<std::string> etag = create_item(client_, at("a"), {{"id", "a"}, {"n", 1}});
  ASSERT_TRUE(etag.has_value());
  EXPECT_FALSE(create_item(client_, at("a"), {{"id", "a"}, {"n", 2}}).has_value());
  const std::optional<std::string> replaced =
      replace_item(client_, at("a"), {{"id", "a"}, {"n", 3}}, *etag);
  ASSERT_TRUE(replaced.has_value());
  // The first etag is stale now.
  EXPECT_FALSE(replace_item(client_, at("a"), {{"id", "a"}, {"n", 4}}, *etag).has_value());
  EXPECT_FALSE(delete_item(client_, at("a"), *etag));
  EXPECT_EQ(read_item(client_, at("a"))->body["n"], 3);
  EXPECT_TRUE(delete_item(client_, at("a"), *replaced));
  EXPECT_FALSE(read_item(client_, at("a")).has_value());
}

TEST_F(CosmosClientTest, QueriesPageThroughEveryPartition) {
  for (int i = 0; i < 7; ++i) {
    const std::string id = "q" + std::to_string(i);
    ASSERT_TRUE(create_item(client_, at(id), {{"id", id}, {"n", i}}).has_value());
  }
  // A plain filter, which the gateway serves across partitions page by page.
  const Query odd{.container = "things",
                  .sql = "SELECT * FROM c WHERE c.n >= @from",
                  .parameters = {{{"name", "@from"}, {"value", 2}}}};
  const QueryPage first = query_page(client_, odd, 2);
  EXPECT_EQ(first.items.size(), 2u);
  EXPECT_FALSE(first.continuation.empty());
  EXPECT_EQ(query_items(client_, odd, 100).size(), 5u);
  EXPECT_EQ(query_items(client_, odd, 3).size(), 3u);
  // An ORDER BY, run per partition key range and merged (cosmos_query_ranges_test.cc).
  Query in_order = odd;
  in_order.sql += " ORDER BY c.id";
  in_order.order = OrderBy{.path = "id"};
  std::vector<std::string> ids;
  for (const nlohmann::json& item : query_items(client_, in_order, 3)) {
    ids.push_back(item["id"].get<std::string>());
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"q2", "q3", "q4"}));
  EXPECT_EQ(query_count(client_, {.container = "things",
                                  .sql = "SELECT VALUE COUNT(1) FROM c WHERE c.n >= @from",
                                  .parameters = odd.parameters}),
            5u);
}

TEST_F(CosmosClientTest, EnsuringAContainerTwiceOrFromAnotherClientIsFine) {
  const Client other(parse_store_url(database_.url()));
  other.ensure_container("things", "/id");
  other.ensure_container("things", "/id");
  EXPECT_TRUE(create_item(other, at("b"), {{"id", "b"}}).has_value());
}

TEST(CosmosClientDown, AServerThatIsDownIsAClearErrorWithoutTheKey) {
  // Port 1 on the loopback: nothing listens there.
  const std::string url = test_support::cosmos_url_with_database(
      "cosmos://127.0.0.1:1?database=x&key=QUJD&tls=off", "x");
  const Client client(parse_store_url(url), {.retry = {.max_attempts = 2,
                                                       .base = std::chrono::milliseconds(1),
                                                       .cap = std::chrono::milliseconds(2)}});
  try {
    client.ensure_container("things", "/id");
    FAIL() << "a server that is down answered";
  } catch (const InfrastructureError& error) {
    EXPECT_THAT(error.what(), HasSubstr("Is the server running there?"));
    EXPECT_THAT(error.what(), HasSubstr("2 attempts"));
    EXPECT_THAT(error.what(), Not(HasSubstr("QUJD")));
  }
}

}  // namespace
}  // namespace docket::cosmos::detail
