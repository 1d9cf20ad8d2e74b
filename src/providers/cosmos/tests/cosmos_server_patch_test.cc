// docket's patch of the Cosmos DB test server (scripts/cosmos/docket-cosmos-server.js,
// docs/cosmos.md), checked by behaviour: each case here fails against the package as
// published (DOCKET_COSMOS_UNPATCHED=1 scripts/cosmos-start.sh), which keeps a batch's
// operations that succeeded before a failing one, takes ids of any length and answers
// 500 for a read of a missing item. docket relies on the service's behaviour in each.
#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail {
namespace {

class CosmosServerPatchTest : public ::testing::Test {
 protected:
  CosmosServerPatchTest() : client_(parse_store_url(database_.url())) {
    client_.ensure_container("parts", "/pk");
  }

  // A transactional batch of `operations` on partition `pk`.
  Response batch(std::string_view pk, const nlohmann::json& operations) const {
    const Request request{.what = "transactional batch",
                          .method = "POST",
                          .resource_type = "docs",
                          .resource_link = client_.container_link("parts"),
                          .path = "/" + client_.container_link("parts") + "/docs",
                          .headers = {{"x-ms-cosmos-is-batch-request", "True"},
                                      {"x-ms-cosmos-batch-atomic", "True"},
                                      {"x-ms-cosmos-batch-ordered", "True"},
                                      {"x-ms-documentdb-partitionkey", partition_key_header(pk)}},
                          .body = operations.dump()};
    return client_.send(request);
  }
  ItemAddress at(std::string_view id, std::string_view pk) const {
    return {.container = "parts", .id = id, .partition_key = pk};
  }

  test_support::CosmosDatabase database_;
  Client client_;
};

TEST_F(CosmosServerPatchTest, AFailingBatchWritesNothing) {
  ASSERT_TRUE(create_item(client_, at("x", "p"), {{"id", "x"}, {"pk", "p"}, {"v", 1}}));
  const nlohmann::json operations = nlohmann::json::array(
      {{{"operationType", "Create"}, {"resourceBody", {{"id", "y"}, {"pk", "p"}}}},
       {{"operationType", "Upsert"},
        {"partitionKey", partition_key_header("p")},
        {"resourceBody", {{"id", "x"}, {"pk", "p"}, {"v", 2}}}},
       {{"operationType", "Create"}, {"resourceBody", {{"id", "x"}, {"pk", "p"}}}}});
  const Response response = batch("p", operations);
  // The service's answer to a failed atomic batch: 207, the failing operation's own
  // status, 424 for the others.
  EXPECT_EQ(response.status, 207);
  ASSERT_TRUE(response.body.is_array());
  ASSERT_EQ(response.body.size(), 3u);
  EXPECT_EQ(response.body[0]["statusCode"], 424);
  EXPECT_EQ(response.body[1]["statusCode"], 424);
  EXPECT_EQ(response.body[2]["statusCode"], 409);
  EXPECT_FALSE(read_item(client_, at("y", "p")).has_value()) << "the batch's create was kept";
  EXPECT_EQ(read_item(client_, at("x", "p"))->body["v"], 1) << "the batch's upsert was kept";
}

TEST_F(CosmosServerPatchTest, ASucceedingBatchWritesEverything) {
  const Response response = batch(
      "p", nlohmann::json::array(
               {{{"operationType", "Create"}, {"resourceBody", {{"id", "a"}, {"pk", "p"}}}},
                {{"operationType", "Create"}, {"resourceBody", {{"id", "b"}, {"pk", "p"}}}}}));
  EXPECT_EQ(response.status, 200);
  EXPECT_TRUE(read_item(client_, at("a", "p")).has_value());
  EXPECT_TRUE(read_item(client_, at("b", "p")).has_value());
}

TEST_F(CosmosServerPatchTest, ABatchAcrossPartitionKeysIsRefused) {
  const Response response = batch(
      "p", nlohmann::json::array(
               {{{"operationType", "Create"}, {"resourceBody", {{"id", "a"}, {"pk", "p"}}}},
                {{"operationType", "Create"}, {"resourceBody", {{"id", "b"}, {"pk", "q"}}}}}));
  EXPECT_EQ(response.status, 400);
  EXPECT_FALSE(read_item(client_, at("a", "p")).has_value());
}

TEST_F(CosmosServerPatchTest, AnIdOverTheServicesLimitIsRefused) {
  const std::string longest(1023, 'i');
  EXPECT_TRUE(create_item(client_, at(longest, "p"), {{"id", longest}, {"pk", "p"}}));
  const std::string over(1024, 'i');
  EXPECT_THROW(create_item(client_, at(over, "p"), {{"id", over}, {"pk", "p"}}), InvalidInputError);
  // Counted in bytes: 512 two-byte characters are 1,024 bytes.
  std::string wide;
  for (int i = 0; i < 512; ++i) {
    wide += "\xC3\xA9";
  }
  EXPECT_THROW(create_item(client_, at(wide, "p"), {{"id", wide}, {"pk", "p"}}), InvalidInputError);
  const Response in_batch = batch(
      "p", nlohmann::json::array(
               {{{"operationType", "Create"}, {"resourceBody", {{"id", "ok"}, {"pk", "p"}}}},
                {{"operationType", "Create"}, {"resourceBody", {{"id", over}, {"pk", "p"}}}}}));
  EXPECT_EQ(in_batch.status, 207);
  EXPECT_FALSE(read_item(client_, at("ok", "p")).has_value());
}

TEST_F(CosmosServerPatchTest, AReadOfAMissingItemIsNotFound) {
  const std::string id = "absent";
  const Request request{.what = "read of a missing item",
                        .method = "GET",
                        .resource_type = "docs",
                        .resource_link = client_.item_link("parts", id),
                        .path = client_.item_path("parts", id),
                        .headers = {{"x-ms-documentdb-partitionkey", partition_key_header("p")}},
                        .replay = Replay::kSafe};
  EXPECT_EQ(client_.send(request).status, 404);
}

}  // namespace
}  // namespace docket::cosmos::detail
