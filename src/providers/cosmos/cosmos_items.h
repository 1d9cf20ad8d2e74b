// The item operations docket's Cosmos DB stores share, over the Client: a point read, a
// create, a replace under the etag it was read with, a delete under an etag, and a query
// with parameters read page by page. Every call names its container and item in errors.
//
// Conditions are outcomes, not errors: a create of an id that exists, a replace or delete
// of an item that changed (412) or went (404) since it was read, come back as nullopt or
// false for the caller to read again and decide anew. Everything else the service
// refuses is thrown (cosmos_client.h), nothing written.
//
// Partition keys: every store here gives each item's partition key value with the call;
// the container's partition key path is the store's (claim entries and checkpoints are
// partitioned by their id, "/id").
//
// Thread-safety: pure functions over a thread-safe Client.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_ITEMS_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_ITEMS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_partition_range_cache.h"
#include "providers/cosmos/cosmos_query_merge.h"

namespace docket::cosmos::detail {

// An item as read, with the etag a conditional write presents.
struct ReadItem {
  nlohmann::json body;
  std::string etag;
};

// Where an item lives.
struct ItemAddress {
  std::string_view container;
  std::string_view id;
  std::string_view partition_key;
};

// The item, or nullopt when it is absent. Repeated where the service failed (a read).
std::optional<ReadItem> read_item(const Client& client, const ItemAddress& item);

// Creates `body` (which carries the id and partition key value); its etag, or nullopt
// when an item of that id exists (nothing written).
std::optional<std::string> create_item(const Client& client, const ItemAddress& item,
                                       const nlohmann::json& body);

// Replaces the item with `body` if its etag is still `etag`: the new etag, or nullopt
// when it changed or went since (nothing written).
std::optional<std::string> replace_item(const Client& client, const ItemAddress& item,
                                        const nlohmann::json& body, std::string_view etag);

// Writes `body` whatever is there (an upsert); its etag.
std::string upsert_item(const Client& client, const ItemAddress& item, const nlohmann::json& body);

// Deletes the item if its etag is still `etag`: false when it changed or went since.
bool delete_item(const Client& client, const ItemAddress& item, std::string_view etag);

// A SQL query with @-named parameters, over one logical partition when `partition` is
// given (sent with its partition key header: the service reads that partition alone, and
// serves ORDER BY and TOP there), else over every partition of the container. A query of
// one partition names its partition key in its WHERE too, so that it means the same on a
// server that reads the header (the service) and one that filters by the WHERE alone.
//
// Over every partition the service's gateway serves a plain filter directly (sent as a
// cross-partition query), but refuses ORDER BY, TOP, DISTINCT, GROUP BY and aggregates
// (cosmos_query_merge.h): such a query is run once per partition key range
// (cosmos_partition_ranges.h) and combined here, as the SDKs do: query_items merges the
// ranges' results in `order` (which the caller must give, naming what its ORDER BY orders
// by) and applies the limit after merging; query_count adds the ranges' counts; and
// query_every_range gives each range's results for the caller to combine (a MIN). A range
// that split meanwhile (410, substatus 1002) makes the whole query start over on the
// ranges read again. Such a query without a way to combine it is a programming error
// (std::logic_error), never sent.
struct Query {
  std::string_view container;
  std::string sql;
  nlohmann::json parameters = nlohmann::json::array();  // [{"name": "@x", "value": ...}]
  std::optional<std::string> partition = std::nullopt;  // its partition key value
  // What the SQL's ORDER BY orders by: required for an ORDER BY over every partition.
  std::optional<OrderBy> order = std::nullopt;
  // Where a query over every range takes the ranges from: nullptr, read afresh; else a
  // cache, for reads a stale list can only delay (cosmos_partition_range_cache.h).
  PartitionRangeCache* range_cache = nullptr;
};

struct QueryPage {
  std::vector<nlohmann::json> items{};
  std::string continuation{};  // "" when no page follows
};

// One page of at most `max_items` results, from `continuation` ("" for the first), of a
// query the gateway serves directly: of one partition, or a plain filter over every
// partition.
QueryPage query_page(const Client& client, const Query& query, std::size_t max_items,
                     const std::string& continuation = "");

// Up to `limit` results, page after page (a page may hold fewer than asked); over every
// partition with an `order`, each range's first `limit` merged.
std::vector<nlohmann::json> query_items(const Client& client, const Query& query,
                                        std::size_t limit);

// The sum of a SELECT VALUE COUNT(1) query's values over every page (and range).
std::uint64_t query_count(const Client& client, const Query& query);

// Up to `limit_per_range` results of each partition key range, the ranges' one after
// another: for an aggregate across partitions (one MIN per range, the least of them).
std::vector<nlohmann::json> query_every_range(const Client& client, const Query& query,
                                              std::size_t limit_per_range);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_ITEMS_H_
