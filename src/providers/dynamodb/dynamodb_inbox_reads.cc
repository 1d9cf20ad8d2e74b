#include "providers/dynamodb/dynamodb_inbox_reads.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "docket/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_expression.h"
#include "providers/dynamodb/dynamodb_inbox_table.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::inbox {
namespace {

constexpr std::size_t kBatchGetKeys = 100;  // DynamoDB's most keys per BatchGetItem
constexpr int kMaxBatchGetRounds = 25;
constexpr std::size_t kPurgePageItems = 1000;
constexpr std::string_view kIdOnly = "#id";
constexpr std::string_view kShardProcessedBefore = "#shard = :shard AND #processed_at < :cutoff";
constexpr std::string_view kProcessedBefore = "#processed_at < :cutoff";

}  // namespace

Reads::Reads(const Client& client, TableSchema schema)
    : client_(client),
      table_(std::move(schema)),
      store_("DynamoDB inbox (table '" + table_.name() + "' at " + client_.url().text + ")") {}

bool Reads::exists(const nlohmann::json& key) const {
  const Response response =
      client_.call({.operation = "GetItem", .table = table_.name(), .replay = Replay::kSafe},
                   {{"TableName", table_.name()},
                    {"Key", key},
                    {"ConsistentRead", true},
                    {"ProjectionExpression", kIdOnly},
                    {"ExpressionAttributeNames", attribute_names({kIdOnly})}});
  return response.body().contains("Item");
}

std::vector<std::string> Reads::unprocessed(const std::string& tenant, std::string_view consumer_id,
                                            std::span<const std::string> message_ids) const {
  // The dedup id of each distinct message id (BatchGetItem refuses a key twice).
  std::map<std::string, std::string> message_of;  // item id -> message id
  for (const std::string& message_id : message_ids) {
    const nlohmann::json key =
        dedup_key(schema(), DedupKey{tenant, std::string(consumer_id), message_id});
    message_of.emplace(key.at(std::string(kId)).at("S").get<std::string>(), message_id);
  }
  std::set<std::string> recorded;  // message ids
  auto next = message_of.begin();
  while (next != message_of.end()) {
    nlohmann::json keys = nlohmann::json::array();
    for (; next != message_of.end() && keys.size() < kBatchGetKeys; ++next) {
      keys.push_back({{std::string(kId), string_value(next->first)}});
    }
    nlohmann::json request_items = {{table_.name(),
                                     {{"Keys", std::move(keys)},
                                      {"ConsistentRead", true},
                                      {"ProjectionExpression", kIdOnly},
                                      {"ExpressionAttributeNames", attribute_names({kIdOnly})}}}};
    for (int round = 1; !request_items.empty(); ++round) {
      if (round > kMaxBatchGetRounds) {
        throw InfrastructureError(store_ +
                                  ": filter_unprocessed: BatchGetItem left keys "
                                  "unprocessed " +
                                  std::to_string(kMaxBatchGetRounds) +
                                  " times in a row (throttled); retry later");
      }
      const Response response = client_.call(
          {.operation = "BatchGetItem", .table = table_.name(), .replay = Replay::kSafe},
          {{"RequestItems", std::move(request_items)}});
      const nlohmann::json& body = response.body();
      for (const nlohmann::json& item : body.value("Responses", nlohmann::json::object())
                                            .value(table_.name(), nlohmann::json::array())) {
        const std::string id(ItemReader(item, store_).string(kId));
        if (const auto found = message_of.find(id); found != message_of.end()) {
          recorded.insert(found->second);
        }
      }
      request_items = body.value("UnprocessedKeys", nlohmann::json::object());
    }
  }
  std::vector<std::string> result;
  for (const std::string& message_id : message_ids) {
    if (!recorded.contains(message_id)) {
      result.push_back(message_id);
    }
  }
  return result;
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
    while (candidates.size() < limit) {
      const std::optional<nlohmann::json> page = pager.next_page();
      if (!page) {
        break;
      }
      for (const nlohmann::json& item : *page) {
        if (candidates.size() < limit) {
          candidates.emplace_back(ItemReader(item, store_).string(kId));
        }
      }
    }
  }
  std::size_t deleted = 0;
  for (const std::string& id : candidates) {
    const Response response =
        client_.call({.operation = "DeleteItem", .table = table_.name(), .replay = Replay::kUnsafe},
                     {{"TableName", table_.name()},
                      {"Key", {{std::string(kId), string_value(id)}}},
                      {"ConditionExpression", kProcessedBefore},
                      {"ExpressionAttributeNames", attribute_names({kProcessedBefore})},
                      {"ExpressionAttributeValues", {{":cutoff", before}}}});
    deleted += response.ok() ? 1 : 0;
  }
  return deleted;
}

}  // namespace docket::dynamodb::inbox
