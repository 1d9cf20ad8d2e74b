#include "providers/dynamodb/dynamodb_outbox_reads.h"

#include <algorithm>
#include <optional>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"
#include "providers/dynamodb/dynamodb_pager.h"

namespace docket::dynamodb::detail::outbox {
namespace {

// Items a page evaluates: what is wanted, or more where a filter may drop some.
constexpr std::size_t kMaxPageItems = 1000;

std::size_t page_items(const ShardQuery& query) {
  const std::size_t wanted = query.filter.empty() ? query.per_shard : 2 * query.per_shard + 16;
  return std::clamp<std::size_t>(wanted, 1, kMaxPageItems);
}

}  // namespace

std::vector<nlohmann::json> query_shards(const Client& client, const std::string& table,
                                         const ShardQuery& query) {
  std::vector<nlohmann::json> items;
  if (query.per_shard == 0) {
    return items;
  }
  const std::string key_condition =
      "#" + std::string(query.shard_attribute) + " = :shard AND " + query.order_condition;
  for (std::int64_t shard = 0; shard < kShards; ++shard) {
    nlohmann::json request = {
        {"TableName", table},
        {"IndexName", query.index},
        {"KeyConditionExpression", key_condition},
        {"ExpressionAttributeNames", attribute_names({key_condition, query.filter})},
        {"ExpressionAttributeValues", query.values},
        {"Limit", page_items(query)}};
    request["ExpressionAttributeValues"][":shard"] = number_value(shard);
    if (!query.filter.empty()) {
      request["FilterExpression"] = query.filter;
    }
    Pager pager = Pager::query(client, std::move(request));
    std::size_t found = 0;
    while (found < query.per_shard) {
      std::optional<nlohmann::json> page = pager.next_page();
      if (!page) {
        break;
      }
      for (nlohmann::json& item : *page) {
        if (found < query.per_shard) {
          items.push_back(std::move(item));
          ++found;
        }
      }
    }
  }
  return items;
}

std::vector<OutboxRecord> lowest_sequences(const std::vector<nlohmann::json>& items,
                                           std::size_t limit, std::string_view store) {
  std::vector<OutboxRecord> records;
  records.reserve(items.size());
  for (const nlohmann::json& item : items) {
    records.push_back(record_of(item, store));
  }
  std::sort(records.begin(), records.end(),
            [](const OutboxRecord& a, const OutboxRecord& b) { return a.sequence < b.sequence; });
  if (records.size() > limit) {
    records.resize(limit);
  }
  return records;
}

}  // namespace docket::dynamodb::detail::outbox
