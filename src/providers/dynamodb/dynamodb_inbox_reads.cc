#include "providers/dynamodb/dynamodb_inbox_reads.h"

#include <algorithm>
#include <map>
#include <utility>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_inbox_table.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/kit/recorded_ids.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail::inbox {
namespace {

constexpr std::size_t kBatchGetKeys = 100;  // DynamoDB's most keys per BatchGetItem
constexpr std::size_t kPurgePageItems = 1000;
constexpr std::string_view kIdOnly = "#id";
constexpr std::string_view kShardProcessedBefore = "#shard = :shard AND #processed_at < :cutoff";
constexpr std::string_view kProcessedBefore = "#processed_at < :cutoff";
constexpr std::string_view kOfConsumer = "#consumer_id = :consumer_id";
constexpr std::string_view kOfTenantConsumer = "#tenant = :tenant AND #consumer_id = :consumer_id";
constexpr std::string_view kIdExists = "attribute_exists(#id)";

}  // namespace

Reads::Reads(const Client& client, TableSchema schema)
    : client_(client),
      table_(std::move(schema)),
      store_("DynamoDB inbox (table '" + table_.name() + "' at " + client_.url().text + ")") {}

bool Reads::exists(const nlohmann::json& key) const {
  return consistent_get(client_, table_.name(), key, kIdOnly).has_value();
}

std::vector<bool> Reads::recorded(
    const std::string& tenant, std::string_view consumer_id,
    std::span<const std::string> message_ids,
    const std::function<bool(const nlohmann::json& key)>& staged) const {
  const auto id_of = [&](const std::string& message_id) {
    return dedup_key(schema(), DedupKey{tenant, std::string(consumer_id), message_id})
        .at(std::string(kId))
        .at("S")
        .get<std::string>();
  };
  std::function<bool(const std::string& id)> known;
  if (staged) {
    known = [&](const std::string& id) {
      return staged(nlohmann::json{{std::string(kId), string_value(id)}});
    };
  }
  const auto read = [this](std::span<const std::string> ids) { return found(ids); };
  return kit::recorded_among(
      message_ids,
      kit::RecordedReads{
          .chunk = kBatchGetKeys, .id_of = id_of, .known = std::move(known), .read = read});
}

std::vector<std::string> Reads::unprocessed(const std::string& tenant, std::string_view consumer_id,
                                            std::span<const std::string> message_ids) const {
  return kit::unrecorded(message_ids, recorded(tenant, consumer_id, message_ids));
}

std::vector<bool> Reads::found(std::span<const std::string> ids) const {
  const std::map<std::string, nlohmann::json> present = consistent_batch_get(
      client_, table_.name(), store_, ids, {.key_attribute = kId, .projection = kIdOnly});
  std::vector<bool> result;
  result.reserve(ids.size());
  for (const std::string& id : ids) {
    result.push_back(present.contains(id));
  }
  return result;
}

// Appends the ids `pager`'s pages hold to `ids` until it holds `limit` or the pages end.
void Reads::collect_ids(Pager& pager, std::size_t limit, std::vector<std::string>& ids) const {
  while (ids.size() < limit) {
    const std::optional<nlohmann::json> page = pager.next_page();
    if (!page) {
      return;
    }
    for (const nlohmann::json& item : *page) {
      if (ids.size() < limit) {
        ids.emplace_back(ItemReader(item, store_).string(kId));
      }
    }
  }
}

// Deletes each of `ids` where `condition` (with `values`) still holds; returns how many.
std::size_t Reads::delete_where(const std::vector<std::string>& ids, std::string_view condition,
                                const nlohmann::json& values) const {
  std::size_t deleted = 0;
  for (const std::string& id : ids) {
    nlohmann::json request = {{"TableName", table_.name()},
                              {"Key", {{std::string(kId), string_value(id)}}},
                              {"ConditionExpression", condition},
                              {"ExpressionAttributeNames", attribute_names({condition})}};
    if (!values.empty()) {
      request["ExpressionAttributeValues"] = values;
    }
    const Response response = client_.call(
        {.operation = "DeleteItem", .table = table_.name(), .replay = Replay::kUnsafe}, request);
    deleted += response.ok() ? 1 : 0;
  }
  return deleted;
}

std::size_t Reads::purge_batch(Timestamp cutoff, std::size_t limit) const {
  const nlohmann::json before = number_value(kit::to_micros(cutoff));
  std::vector<std::string> candidates;
  for (std::int64_t shard = 0; shard < claim::kShards && candidates.size() < limit; ++shard) {
    Pager pager = Pager::query(
        client_,
        {{"TableName", table_.name()},
         {"IndexName", kShardProcessedIndex},
         {"KeyConditionExpression", kShardProcessedBefore},
         {"ProjectionExpression", kIdOnly},
         {"ExpressionAttributeNames", attribute_names({kShardProcessedBefore, kIdOnly})},
         {"ExpressionAttributeValues", {{":shard", number_value(shard)}, {":cutoff", before}}},
         {"Limit", std::min(limit - candidates.size(), kPurgePageItems)}});
    collect_ids(pager, limit, candidates);
  }
  return delete_where(candidates, kProcessedBefore, {{":cutoff", before}});
}

std::size_t Reads::purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                        std::size_t limit) const {
  const std::string_view filter = tenant != nullptr ? kOfTenantConsumer : kOfConsumer;
  nlohmann::json values = {{":consumer_id", string_value(consumer_id)}};
  if (tenant != nullptr) {
    values[":tenant"] = string_value(*tenant);
  }
  Pager pager =
      Pager::scan(client_, {{"TableName", table_.name()},
                            {"FilterExpression", filter},
                            {"ProjectionExpression", kIdOnly},
                            {"ExpressionAttributeNames", attribute_names({filter, kIdOnly})},
                            {"ExpressionAttributeValues", std::move(values)},
                            {"ConsistentRead", true},
                            {"Limit", kPurgePageItems}});
  std::vector<std::string> candidates;
  collect_ids(pager, limit, candidates);
  return delete_where(candidates, kIdExists, nlohmann::json::object());
}

}  // namespace docket::dynamodb::detail::inbox
