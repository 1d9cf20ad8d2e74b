#include "providers/cosmos/cosmos_items.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_partition_ranges.h"

namespace docket::cosmos::detail {
namespace {

// Feeds larger than this are read in several pages.
constexpr std::size_t kMaxPageItems = 1000;

std::string item_what(std::string_view verb, const ItemAddress& item) {
  return std::string(verb) + " of item '" + std::string(item.id) + "' in container '" +
         std::string(item.container) + "'";
}

Request item_request(const Client& client, const ItemAddress& item, std::string_view what,
                     std::string_view method) {
  return {.what = what,
          .method = method,
          .resource_type = "docs",
          .resource_link = client.item_link(item.container, item.id),
          .path = client.item_path(item.container, item.id),
          .headers = {{"x-ms-documentdb-partitionkey", partition_key_header(item.partition_key)}}};
}

// A create or replace the service refused as malformed: an id or partition key it does
// not take (the patched test server and the service refuse an id over 1,023 bytes).
[[noreturn]] void refuse_bad_request(const Request& request, const Response& response) {
  const std::string message = response.body.is_object() && response.body.contains("message") &&
                                      response.body["message"].is_string()
                                  ? response.body["message"].get<std::string>()
                                  : response.body.dump();
  throw InvalidInputError("Cosmos DB " + std::string(request.what) +
                          " was refused as malformed (HTTP 400: " + message.substr(0, 500) +
                          "); nothing was written");
}

}  // namespace

std::optional<ReadItem> read_item(const Client& client, const ItemAddress& item) {
  const std::string what = item_what("read", item);
  Request request = item_request(client, item, what, "GET");
  request.replay = Replay::kSafe;
  Response response = client.send(request);
  if (response.status == 404) {
    return std::nullopt;
  }
  if (response.status != 200) {
    client.fail(request, response);
  }
  return ReadItem{.body = std::move(response.body), .etag = std::move(response.etag)};
}

std::optional<std::string> create_item(const Client& client, const ItemAddress& item,
                                       const nlohmann::json& body) {
  const std::string what = item_what("create", item);
  Request request = item_request(client, item, what, "POST");
  request.resource_link = client.container_link(item.container);
  request.path = "/" + request.resource_link + "/docs";
  request.body = body.dump();
  Response response = client.send(request);
  if (response.status == 409) {
    return std::nullopt;
  }
  if (response.status == 400) {
    refuse_bad_request(request, response);
  }
  if (response.status != 201) {
    client.fail(request, response);
  }
  return std::move(response.etag);
}

std::optional<std::string> replace_item(const Client& client, const ItemAddress& item,
                                        const nlohmann::json& body, std::string_view etag) {
  const std::string what = item_what("replace", item);
  Request request = item_request(client, item, what, "PUT");
  request.headers.push_back({"If-Match", std::string(etag)});
  request.body = body.dump();
  Response response = client.send(request);
  if (response.status == 412 || response.status == 404) {
    return std::nullopt;
  }
  if (response.status == 400) {
    refuse_bad_request(request, response);
  }
  if (response.status != 200) {
    client.fail(request, response);
  }
  return std::move(response.etag);
}

std::string upsert_item(const Client& client, const ItemAddress& item, const nlohmann::json& body) {
  const std::string what = item_what("upsert", item);
  Request request = item_request(client, item, what, "POST");
  request.resource_link = client.container_link(item.container);
  request.path = "/" + request.resource_link + "/docs";
  request.headers.push_back({"x-ms-documentdb-is-upsert", "True"});
  request.body = body.dump();
  // The same whole item written twice is written once.
  request.replay = Replay::kSafe;
  Response response = client.send(request);
  if (response.status == 400) {
    refuse_bad_request(request, response);
  }
  if (response.status != 200 && response.status != 201) {
    client.fail(request, response);
  }
  return std::move(response.etag);
}

bool delete_item(const Client& client, const ItemAddress& item, std::string_view etag) {
  const std::string what = item_what("delete", item);
  Request request = item_request(client, item, what, "DELETE");
  request.headers.push_back({"If-Match", std::string(etag)});
  const Response response = client.send(request);
  if (response.status == 412 || response.status == 404) {
    return false;
  }
  if (response.status != 204 && response.status != 200) {
    client.fail(request, response);
  }
  return true;
}

namespace {

// How often a query over every range starts over after a range split under it.
constexpr int kMaxRangeRereads = 10;

// A range named by a query split or merged away since the ranges were read.
struct RangeGone {};

// One page of `query`, in partition key range `range` when given (then a 410 for a range
// gone throws RangeGone).
QueryPage send_query(const Client& client, const Query& query, std::size_t max_items,
                     const std::string& continuation, const std::string* range) {
  const std::string what = "query of container '" + std::string(query.container) + "'";
  Request request{
      .what = what,
      .method = "POST",
      .resource_type = "docs",
      .resource_link = client.container_link(query.container),
      .headers = {{"Content-Type", "application/query+json"},
                  {"x-ms-documentdb-isquery", "True"},
                  {"x-ms-max-item-count", std::to_string(max_items)}},
      .body = nlohmann::json{{"query", query.sql}, {"parameters", query.parameters}}.dump(),
      .replay = Replay::kSafe};
  request.path = "/" + request.resource_link + "/docs";
  if (query.partition) {
    request.headers.push_back(
        {"x-ms-documentdb-partitionkey", partition_key_header(*query.partition)});
  } else {
    request.headers.push_back({"x-ms-documentdb-query-enablecrosspartition", "True"});
    if (range != nullptr) {
      request.headers.push_back({"x-ms-documentdb-partitionkeyrangeid", *range});
    }
  }
  if (!continuation.empty()) {
    request.headers.push_back({"x-ms-continuation", continuation});
  }
  Response response = client.send(request);
  if (range != nullptr && range_is_gone(response)) {
    throw RangeGone{};
  }
  if (response.status != 200 || !response.body.is_object() ||
      !response.body.contains("Documents") || !response.body["Documents"].is_array()) {
    client.fail(request, response);
  }
  QueryPage page{.items = {}, .continuation = std::move(response.continuation)};
  for (nlohmann::json& item : response.body["Documents"]) {
    page.items.push_back(std::move(item));
  }
  return page;
}

// Up to `limit` results of `query` in `range` (nullptr: as the query's scope says).
std::vector<nlohmann::json> collect(const Client& client, const Query& query, std::size_t limit,
                                    const std::string* range) {
  std::vector<nlohmann::json> items;
  std::string continuation;
  while (items.size() < limit) {
    QueryPage page = send_query(client, query, std::min(limit - items.size(), kMaxPageItems),
                                continuation, range);
    for (nlohmann::json& item : page.items) {
      if (items.size() < limit) {
        items.push_back(std::move(item));
      }
    }
    continuation = std::move(page.continuation);
    if (continuation.empty()) {
      break;
    }
  }
  return items;
}

// Up to `limit` results of each current partition key range, one run per range; started
// over on the ranges read again when one split under it.
std::vector<std::vector<nlohmann::json>> collect_ranges(const Client& client, const Query& query,
                                                        std::size_t limit) {
  for (int read = 1;; ++read) {
    const std::vector<std::string> ranges =
        query.range_cache != nullptr ? query.range_cache->ranges(client, query.container)
                                     : read_partition_key_ranges(client, query.container);
    try {
      std::vector<std::vector<nlohmann::json>> runs;
      for (const std::string& range : ranges) {
        runs.push_back(collect(client, query, limit, &range));
      }
      return runs;
    } catch (const RangeGone&) {
      if (query.range_cache != nullptr) {
        query.range_cache->forget();
      }
      if (read == kMaxRangeRereads) {
        throw InfrastructureError("Cosmos DB query of container '" + std::string(query.container) +
                                  "' at " + client.url().printable +
                                  ": its partition key ranges split under each of " +
                                  std::to_string(kMaxRangeRereads) + " reads of them; retry later");
      }
    }
  }
}

[[noreturn]] void refuse_unmergeable(const Query& query) {
  throw std::logic_error(
      "a Cosmos DB query over every partition with ORDER BY, TOP, DISTINCT, GROUP BY or an "
      "aggregate cannot be served by the gateway and must be combined per partition key range "
      "(give Query::order, or use query_count or query_every_range): " +
      query.sql);
}

}  // namespace

QueryPage query_page(const Client& client, const Query& query, std::size_t max_items,
                     const std::string& continuation) {
  if (!query.partition && needs_query_plan(query.sql)) {
    refuse_unmergeable(query);
  }
  return send_query(client, query, max_items, continuation, nullptr);
}

std::vector<nlohmann::json> query_items(const Client& client, const Query& query,
                                        std::size_t limit) {
  if (query.partition || !needs_query_plan(query.sql)) {
    return collect(client, query, limit, nullptr);
  }
  if (!query.order) {
    refuse_unmergeable(query);
  }
  return merge_ordered(collect_ranges(client, query, limit), *query.order, limit);
}

std::uint64_t query_count(const Client& client, const Query& query) {
  std::uint64_t count = 0;
  const auto add = [&count](const std::vector<nlohmann::json>& values) {
    for (const nlohmann::json& value : values) {
      if (value.is_number_unsigned() || value.is_number_integer()) {
        count += value.get<std::uint64_t>();
      }
    }
  };
  if (query.partition) {
    add(collect(client, query, SIZE_MAX, nullptr));
  } else {
    for (const std::vector<nlohmann::json>& run : collect_ranges(client, query, SIZE_MAX)) {
      add(run);
    }
  }
  return count;
}

std::vector<nlohmann::json> query_every_range(const Client& client, const Query& query,
                                              std::size_t limit_per_range) {
  std::vector<nlohmann::json> all;
  for (std::vector<nlohmann::json>& run : collect_ranges(client, query, limit_per_range)) {
    for (nlohmann::json& item : run) {
      all.push_back(std::move(item));
    }
  }
  return all;
}

}  // namespace docket::cosmos::detail
