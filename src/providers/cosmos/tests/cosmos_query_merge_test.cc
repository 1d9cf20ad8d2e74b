// The client's half of a query over every partition (cosmos_query_merge.h,
// cosmos_partition_ranges.h), without a server: which queries the gateway refuses across
// partitions, Cosmos DB's order of mixed values, the merge of four ranges' runs in order
// with the limit applied after merging, and the ranges of a feed after a split.
#include "providers/cosmos/cosmos_query_merge.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "providers/cosmos/cosmos_partition_ranges.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::ElementsAre;
using Json = nlohmann::json;

TEST(CosmosQueryMerge, TheClausesTheGatewayRefusesAcrossPartitionsAreFound) {
  EXPECT_TRUE(needs_query_plan("SELECT * FROM c WHERE c.n > 1 ORDER BY c.n"));
  EXPECT_TRUE(needs_query_plan("select * from c order  by c.n desc"));
  EXPECT_TRUE(needs_query_plan("SELECT TOP 1 VALUE c.version FROM c"));
  EXPECT_TRUE(needs_query_plan("SELECT VALUE COUNT(1) FROM c"));
  EXPECT_TRUE(needs_query_plan("SELECT VALUE MIN (c.receivedAt) FROM c"));
  EXPECT_TRUE(needs_query_plan("SELECT DISTINCT c.tenant FROM c"));
  EXPECT_TRUE(needs_query_plan("SELECT c.t, COUNT(1) AS n FROM c GROUP BY c.t"));
  EXPECT_TRUE(needs_query_plan("SELECT * FROM c OFFSET 1 LIMIT 2"));
  // Plain filters, and the words inside literals, properties and parameters.
  EXPECT_FALSE(needs_query_plan("SELECT * FROM c WHERE c.docketTable = @table"));
  EXPECT_FALSE(needs_query_plan("SELECT * FROM c WHERE c.status = 'order by top count(1)'"));
  EXPECT_FALSE(needs_query_plan("SELECT * FROM c WHERE c.top = @top AND c.count > 1"));
  EXPECT_FALSE(needs_query_plan("SELECT * FROM c WHERE c.s = \"DISTINCT \\\" ORDER BY\""));
  EXPECT_FALSE(needs_query_plan("SELECT c.orderingKey FROM c WHERE c.topic = 'x'"));
}

TEST(CosmosQueryMerge, MixedValuesOrderAsCosmosDbOrdersThem) {
  const Json null_value = nullptr;
  const Json no = false;
  const Json yes = true;
  const Json two = 2;
  const Json two_and_a_half = 2.5;
  const Json big = 9'007'199'254'740'993;  // 2^53 + 1: compared exactly as integers
  const Json bigger = 9'007'199'254'740'994;
  const Json text = "a";
  const Json later = "b";
  const std::vector<const Json*> ascending = {nullptr,         &null_value, &no,     &yes,  &two,
                                              &two_and_a_half, &big,        &bigger, &text, &later};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    for (std::size_t j = 0; j < ascending.size(); ++j) {
      const int sign = compare_order_values(ascending[i], ascending[j]);
      EXPECT_EQ(sign < 0, i < j) << i << " against " << j;
      EXPECT_EQ(sign == 0, i == j) << i << " against " << j;
    }
  }
}

TEST(CosmosQueryMerge, AValueIsFoundByItsPath) {
  const Json item = {{"n", 1}, {"a", {{"b", "x"}}}};
  EXPECT_EQ(*order_value(item, {.path = "n"}), 1);
  EXPECT_EQ(*order_value(item, {.path = "a.b"}), "x");
  EXPECT_EQ(order_value(item, {.path = "missing"}), nullptr);
  EXPECT_EQ(order_value(item, {.path = "n.deeper"}), nullptr);
  EXPECT_EQ(*order_value(Json("value"), {.path = ""}), "value");
}

// Four ranges' runs of 0..99 dealt at random, each run in order.
std::vector<std::vector<Json>> dealt(bool descending, std::uint32_t seed) {
  std::vector<std::vector<Json>> runs(4);
  std::mt19937 random(seed);
  for (int n = 0; n < 100; ++n) {
    runs[random() % 4].push_back({{"id", "m" + std::to_string(n)}, {"sequence", n}});
  }
  if (descending) {
    for (std::vector<Json>& run : runs) {
      std::reverse(run.begin(), run.end());
    }
  }
  return runs;
}

TEST(CosmosQueryMerge, FourRangesMergeInOrderWithTheLimitAppliedAfterMerging) {
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    for (const std::size_t limit :
         {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{100}, std::size_t{1000}}) {
      for (const bool descending : {false, true}) {
        const std::vector<Json> merged = merge_ordered(
            dealt(descending, seed), {.path = "sequence", .descending = descending}, limit);
        ASSERT_EQ(merged.size(), std::min<std::size_t>(limit, 100));
        for (std::size_t i = 0; i < merged.size(); ++i) {
          const int expected = descending ? 99 - static_cast<int>(i) : static_cast<int>(i);
          ASSERT_EQ(merged[i]["sequence"], expected) << "seed " << seed << ", limit " << limit;
        }
      }
    }
  }
}

TEST(CosmosQueryMerge, TiesKeepTheLowerRangeFirstAndEmptyRunsAreSkipped) {
  std::vector<std::vector<Json>> runs = {{},
                                         {{{"k", 1}, {"r", 1}}, {{"k", 3}, {"r", 1}}},
                                         {},
                                         {{{"k", 1}, {"r", 3}}, {{"k", 2}, {"r", 3}}}};
  std::vector<int> ranges;
  for (const Json& item : merge_ordered(std::move(runs), {.path = "k"}, 10)) {
    ranges.push_back(item["r"].get<int>() * 10 + item["k"].get<int>());
  }
  EXPECT_THAT(ranges, ElementsAre(11, 31, 32, 13));
  EXPECT_TRUE(merge_ordered({}, {.path = "k"}, 10).empty());
}

TEST(CosmosPartitionRanges, ARangeThatSplitIsDroppedForItsChildren) {
  const Json ranges = Json::parse(R"([
    {"id": "0", "minInclusive": "", "maxExclusive": "80", "parents": []},
    {"id": "1", "minInclusive": "80", "maxExclusive": "FF", "parents": []},
    {"id": "2", "minInclusive": "", "maxExclusive": "40", "parents": ["0"]},
    {"id": "3", "minInclusive": "40", "maxExclusive": "80", "parents": ["0"]},
    {"minInclusive": "no id"},
    {"id": ["not", "an", "id"]}
  ])");
  EXPECT_THAT(current_range_ids(ranges), ElementsAre("1", "2", "3"));
  EXPECT_THAT(current_range_ids(Json::parse(R"([{"id": 0, "parents": []}])")), ElementsAre("0"));
  EXPECT_TRUE(current_range_ids(Json::object()).empty());
}

}  // namespace
}  // namespace docket::cosmos::detail
