// Queries over every partition against docket's patch of the test server, which serves
// them as the service's gateway does (scripts/cosmos/docket-cosmos-server.js, patch 5):
// four partition key ranges, a cross-partition ORDER BY or aggregate refused without a
// range id (400, substatus 1004; the unpatched package answers it, so the first case fails
// there), a query naming a range reading that range alone, and docket's merge of the
// ranges in order with the limit after merging. A range that splits under a query (a
// server of the test's own, started to split a range holding more than 3 items) is met
// with 410 and the query starts over on the ranges read again.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "conformance/eventsourcing/temp_dir.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_partition_range_cache.h"
#include "providers/cosmos/cosmos_partition_ranges.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "providers/kit/http/request_count.h"
#include "support/loopback_http_server.h"
#include "support/own_server.h"

namespace docket::cosmos::detail {
namespace {

constexpr int kItems = 40;

// `count` items "i0".."i{count-1}" in container "spread" (partitioned by /pk, each item a
// partition of its own), `n` = the index, `bucket` = n % 3.
void write_spread(const Client& client, int count) {
  client.ensure_container("spread", "/pk");
  for (int n = 0; n < count; ++n) {
    const std::string id = "i" + std::to_string(n);
    const std::string pk = "p" + std::to_string(n);
    ASSERT_TRUE(create_item(client, {.container = "spread", .id = id, .partition_key = pk},
                            {{"id", id}, {"pk", pk}, {"n", n}, {"bucket", n % 3}})
                    .has_value());
  }
}

Query ordered(std::string sql, bool descending = false) {
  return {.container = "spread",
          .sql = std::move(sql),
          .order = OrderBy{.path = "n", .descending = descending}};
}

std::vector<int> numbers(const std::vector<nlohmann::json>& items) {
  std::vector<int> out;
  for (const nlohmann::json& item : items) {
    out.push_back(item["n"].get<int>());
  }
  return out;
}

std::vector<int> range_of(int from, int until, int step = 1) {
  std::vector<int> out;
  for (int n = from; step > 0 ? n < until : n > until; n += step) {
    out.push_back(n);
  }
  return out;
}

class CosmosQueryRangesTest : public ::testing::Test {
 protected:
  CosmosQueryRangesTest() : client_(parse_store_url(database_.url())) {}

  // The status and substatus of `sql` sent across partitions as one query, no range named.
  std::pair<long, int> sent_whole(const std::string& sql) const {
    const Request request{
        .what = "query sent whole",
        .method = "POST",
        .resource_type = "docs",
        .resource_link = client_.container_link("spread"),
        .path = "/" + client_.container_link("spread") + "/docs",
        .headers = {{"Content-Type", "application/query+json"},
                    {"x-ms-documentdb-isquery", "True"},
                    {"x-ms-documentdb-query-enablecrosspartition", "True"}},
        .body = nlohmann::json{{"query", sql}, {"parameters", nlohmann::json::array()}}.dump(),
        .replay = Replay::kSafe};
    const Response response = client_.send(request);
    return {response.status, response.substatus};
  }

  test_support::CosmosDatabase database_;
  Client client_;
};

TEST_F(CosmosQueryRangesTest, TheGatewayRefusesAnOrderByOrAggregateAcrossPartitions) {
  write_spread(client_, 4);
  EXPECT_EQ(sent_whole("SELECT * FROM c ORDER BY c.n"), std::make_pair(400L, 1004));
  EXPECT_EQ(sent_whole("SELECT TOP 2 * FROM c"), std::make_pair(400L, 1004));
  EXPECT_EQ(sent_whole("SELECT VALUE COUNT(1) FROM c"), std::make_pair(400L, 1004));
  // A plain filter is served across partitions as it is.
  EXPECT_EQ(sent_whole("SELECT * FROM c WHERE c.n > 1").first, 200);
  // docket never sends one: its own check refuses it before sending.
  EXPECT_THROW(
      query_page(client_, {.container = "spread", .sql = "SELECT * FROM c ORDER BY c.n"}, 10),
      std::logic_error);
}

TEST_F(CosmosQueryRangesTest, EachRangeHoldsItsOwnItemsAndTogetherAll) {
  write_spread(client_, kItems);
  const std::vector<std::string> ranges = read_partition_key_ranges(client_, "spread");
  ASSERT_EQ(ranges.size(), 4u);
  std::multiset<int> seen;
  const Query all{.container = "spread", .sql = "SELECT * FROM c"};
  // Every range's items, one range after another: each item once, and no range empty
  // (the 40 keys spread over the four quarters of the hash).
  const std::vector<nlohmann::json> every = query_every_range(client_, all, 1000);
  for (const nlohmann::json& item : every) {
    seen.insert(item["n"].get<int>());
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kItems));
  EXPECT_EQ(std::set<int>(seen.begin(), seen.end()).size(), static_cast<std::size_t>(kItems));
  int total = 0;
  for (const nlohmann::json& count : query_every_range(
           client_, {.container = "spread", .sql = "SELECT VALUE COUNT(1) FROM c"}, 1)) {
    EXPECT_GT(count.get<int>(), 0);
    total += count.get<int>();
  }
  EXPECT_EQ(total, kItems);
}

TEST_F(CosmosQueryRangesTest, AnOrderByAcrossPartitionsIsMergedInOrderWithItsLimit) {
  write_spread(client_, kItems);
  EXPECT_EQ(numbers(query_items(client_, ordered("SELECT * FROM c ORDER BY c.n"), 1000)),
            range_of(0, kItems));
  EXPECT_EQ(numbers(query_items(client_, ordered("SELECT * FROM c ORDER BY c.n"), 7)),
            range_of(0, 7));
  EXPECT_EQ(numbers(query_items(client_, ordered("SELECT * FROM c ORDER BY c.n DESC", true), 5)),
            range_of(kItems - 1, kItems - 6, -1));
  // A filtered page after a position, as the outbox's claim and the listings read.
  const Query after{.container = "spread",
                    .sql = "SELECT * FROM c WHERE c.bucket = 1 AND c.n > @after ORDER BY c.n",
                    .parameters = {{{"name", "@after"}, {"value", 10}}},
                    .order = OrderBy{.path = "n"}};
  EXPECT_EQ(numbers(query_items(client_, after, 4)), (std::vector<int>{13, 16, 19, 22}));
  EXPECT_EQ(query_count(client_, {.container = "spread",
                                  .sql = "SELECT VALUE COUNT(1) FROM c WHERE c.bucket = 0"}),
            14u);
  // An ORDER BY across partitions without its order is a programming error, never sent.
  EXPECT_THROW(
      query_items(client_, {.container = "spread", .sql = "SELECT * FROM c ORDER BY c.n"}, 5),
      std::logic_error);
}

TEST(CosmosQueryRangeSplit, ARangeSplitUnderAQueryIsReadAgainAndTheResultIsWhole) {
  const conformance::eventsourcing::TempDir dir;
  const testing::OwnServer server("cosmos", 1, [&](int port) {
    return "DOCKET_COSMOS_SPLIT_AT=3 DOCKET_COSMOS_DIR=" +
           dir.file("cosmos-" + std::to_string(port)) +
           " DOCKET_COSMOS_PORT=" + std::to_string(port);
  });
  const Client client(parse_store_url(server.url()));
  write_spread(client, 12);
  // A claim's cache of the ranges, read before the split: the query through it meets the
  // 410, the cache forgets its list, and the query starts over on the ranges read again.
  PartitionRangeCache cache;
  ASSERT_EQ(cache.ranges(client, "spread").size(), 4u);
  const std::uint64_t before = kit::http::docket_requests().load();
  EXPECT_EQ(cache.ranges(client, "spread").size(), 4u);
  EXPECT_EQ(kit::http::docket_requests().load(), before) << "kept: no request";
  // 12 keys over 4 ranges: some range holds more than 3, and splits when first queried.
  Query through_cache = ordered("SELECT * FROM c ORDER BY c.n");
  through_cache.range_cache = &cache;
  EXPECT_EQ(numbers(query_items(client, through_cache, 100)), range_of(0, 12));
  const std::vector<std::string> after = read_partition_key_ranges(client, "spread");
  EXPECT_GT(after.size(), 4u) << "no range split: the case tests nothing";
  EXPECT_EQ(cache.ranges(client, "spread"), after) << "the cache holds the ranges read again";
  EXPECT_EQ(query_count(client, {.container = "spread", .sql = "SELECT VALUE COUNT(1) FROM c"}),
            12u);
}

}  // namespace
}  // namespace docket::cosmos::detail
