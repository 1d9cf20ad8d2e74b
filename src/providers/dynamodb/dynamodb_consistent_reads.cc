#include "providers/dynamodb/dynamodb_consistent_reads.h"

#include <set>
#include <utility>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_expression.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::size_t kBatchGetKeys = 100;  // DynamoDB's most keys per BatchGetItem
// BatchGetItem rounds that may leave keys unprocessed (throttling) before giving up.
constexpr int kMaxBatchGetRounds = 25;

}  // namespace

std::optional<nlohmann::json> consistent_get(const Client& client, const std::string& table,
                                             const nlohmann::json& key,
                                             std::string_view projection) {
  nlohmann::json request = {{"TableName", table}, {"Key", key}, {"ConsistentRead", true}};
  if (!projection.empty()) {
    request["ProjectionExpression"] = projection;
    request["ExpressionAttributeNames"] = attribute_names({projection});
  }
  const Response response =
      client.call({.operation = "GetItem", .table = table, .replay = Replay::kSafe}, request);
  const auto item = response.body().find("Item");
  if (item == response.body().end()) {
    return std::nullopt;
  }
  return *item;
}

std::map<std::string, nlohmann::json> consistent_batch_get(const Client& client,
                                                           const std::string& table,
                                                           std::string_view store,
                                                           std::span<const std::string> ids,
                                                           const BatchGet& get) {
  // Distinct: BatchGetItem refuses a request that names one key twice.
  const std::set<std::string> distinct(ids.begin(), ids.end());
  const std::string key_attribute(get.key_attribute);
  std::map<std::string, nlohmann::json> found;
  auto next = distinct.begin();
  while (next != distinct.end()) {
    nlohmann::json keys = nlohmann::json::array();
    for (; next != distinct.end() && keys.size() < kBatchGetKeys; ++next) {
      keys.push_back({{key_attribute, string_value(*next)}});
    }
    nlohmann::json read = {{"Keys", std::move(keys)}, {"ConsistentRead", true}};
    if (!get.projection.empty()) {
      read["ProjectionExpression"] = get.projection;
      read["ExpressionAttributeNames"] = attribute_names({get.projection});
    }
    nlohmann::json request_items = {{table, std::move(read)}};
    for (int round = 1; !request_items.empty(); ++round) {
      if (round > kMaxBatchGetRounds) {
        throw InfrastructureError(std::string(store) + ": BatchGetItem left keys unprocessed " +
                                  std::to_string(kMaxBatchGetRounds) +
                                  " times in a row (throttled); retry later");
      }
      const Response response =
          client.call({.operation = "BatchGetItem", .table = table, .replay = Replay::kSafe},
                      {{"RequestItems", std::move(request_items)}});
      const nlohmann::json& body = response.body();
      for (const nlohmann::json& item : body.value("Responses", nlohmann::json::object())
                                            .value(table, nlohmann::json::array())) {
        found.emplace(std::string(ItemReader(item, store).string(get.key_attribute)), item);
      }
      // The keys DynamoDB did not read this round.
      request_items = body.value("UnprocessedKeys", nlohmann::json::object());
    }
  }
  return found;
}

}  // namespace docket::dynamodb::detail
