// The client's half of a query over every partition that the service's gateway does not
// serve directly: the gateway answers a query across partitions that has ORDER BY, TOP,
// OFFSET, DISTINCT, GROUP BY or an aggregate only with 400 (substatus 1004), expecting the
// client to run it once per partition key range and combine the answers, as Microsoft's
// SDKs do. docket's queries name what they order by (a JSON path and a direction), so the
// merge needs no query plan: each range's answer is already in that order, and the runs
// are merged in it, the limit applied after merging.
//
// Order: Cosmos DB's ORDER BY order of mixed types, undefined (the path is absent) < null <
// false < true < numbers < strings (ordinal, byte by byte in UTF-8) < arrays < objects;
// docket orders only by numbers and strings. Ties keep the runs' order (the lower run
// first), so a merge is deterministic.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_QUERY_MERGE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_QUERY_MERGE_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace docket::cosmos::detail {

// What a query's ORDER BY orders by: the value at `path` in each result, dotted
// ("pendingSequence", "a.b"), or the result itself for "" (a SELECT VALUE query).
struct OrderBy {
  std::string path;
  bool descending = false;
};

// Whether the gateway refuses `sql` over every partition without a partition key range
// id: it has ORDER BY, GROUP BY, TOP, OFFSET, DISTINCT or an aggregate (COUNT, MIN, MAX,
// SUM, AVG), outside string literals.
bool needs_query_plan(std::string_view sql);

// <0, 0, >0 as `a` orders before, with or after `b` ascending; nullptr is undefined.
int compare_order_values(const nlohmann::json* a, const nlohmann::json* b);

// The value `order` orders `result` by, nullptr when undefined.
const nlohmann::json* order_value(const nlohmann::json& result, const OrderBy& order);

// The first `limit` results of `runs` merged in `order`; each run must be in that order.
std::vector<nlohmann::json> merge_ordered(std::vector<std::vector<nlohmann::json>> runs,
                                          const OrderBy& order, std::size_t limit);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_QUERY_MERGE_H_
