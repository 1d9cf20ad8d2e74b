#include "dynamodb_raw_inbox.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "first_deliveries.h"
#include "inbox_workload.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_inbox_table.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

constexpr std::string_view kEffectsTableBase = "docket_bench_effects";
constexpr std::size_t kMessagesPerTransaction = 50;  // two items each, of DynamoDB's 100

}  // namespace

dynamodb::detail::TableSchema effects_table_schema(const std::string& url) {
  return {.name = dynamodb::detail::parse_store_url(url).table_name(kEffectsTableBase),
          .partition_key = {"id", dynamodb::detail::KeyType::kString},
          .sort_key = std::nullopt,
          .global_indexes = {}};
}

nlohmann::json effect_item(std::string_view consumer_id, std::string_view message_id,
                           std::string_view body) {
  return {{"id", dynamodb::detail::string_value(message_id)},
          {"consumer_id", dynamodb::detail::string_value(consumer_id)},
          {"body", dynamodb::detail::string_value(body)}};
}

RawInboxDynamoDb::RawInboxDynamoDb(const std::string& url, std::string_view consumer_id,
                                   DedupCheck dedup)
    : client_(dynamodb::detail::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      inbox_(dynamodb::detail::inbox::inbox_table_schema(client_.url())),
      effects_(effects_table_schema(url).name),
      consumer_id_(consumer_id),
      dedup_(dedup) {}

void RawInboxDynamoDb::deliver(const BenchDelivery& delivery, DispatchCounts& counts) {
  commit({&delivery, 1}, counts);
}

void RawInboxDynamoDb::deliver_batch(std::span<const BenchDelivery> deliveries,
                                     DispatchCounts& counts) {
  for (std::size_t from = 0; from < deliveries.size(); from += kMessagesPerTransaction) {
    commit(deliveries.subspan(from, std::min(kMessagesPerTransaction, deliveries.size() - from)),
           counts);
  }
}

DedupKey RawInboxDynamoDb::dedup_key_of(const BenchDelivery& delivery) const {
  return DedupKey{std::string(TenantId::untenanted().value()), consumer_id_,
                  std::string(delivery.message_id)};
}

void RawInboxDynamoDb::drop_recorded(std::vector<const BenchDelivery*>& pending,
                                     DispatchCounts& counts) {
  std::map<std::string, const BenchDelivery*> by_id;  // dedup item id -> delivery
  nlohmann::json keys = nlohmann::json::array();
  for (const BenchDelivery* delivery : pending) {
    nlohmann::json key = dynamodb::detail::inbox::dedup_key(inbox_, dedup_key_of(*delivery));
    by_id.emplace(key.at("id").at("S").get<std::string>(), delivery);
    keys.push_back(std::move(key));
  }
  nlohmann::json request_items = {
      {inbox_.name,
       {{"Keys", std::move(keys)}, {"ConsistentRead", true}, {"ProjectionExpression", "id"}}}};
  std::set<const BenchDelivery*> recorded;
  while (!request_items.empty()) {
    const dynamodb::detail::Response response =
        client_.call({.operation = "BatchGetItem",
                      .table = inbox_.name,
                      .replay = dynamodb::detail::Replay::kSafe},
                     {{"RequestItems", std::move(request_items)}});
    const nlohmann::json& body = response.body();
    for (const nlohmann::json& item : body.value("Responses", nlohmann::json::object())
                                          .value(inbox_.name, nlohmann::json::array())) {
      recorded.insert(by_id.at(item.at("id").at("S").get<std::string>()));
    }
    request_items = body.value("UnprocessedKeys", nlohmann::json::object());
  }
  std::erase_if(pending,
                [&](const BenchDelivery* delivery) { return recorded.contains(delivery); });
  counts.skipped_duplicates += recorded.size();
}

bool RawInboxDynamoDb::recorded(const BenchDelivery& delivery) {
  const dynamodb::detail::Response response = client_.call(
      {.operation = "GetItem", .table = inbox_.name, .replay = dynamodb::detail::Replay::kSafe},
      {{"TableName", inbox_.name},
       {"Key", dynamodb::detail::inbox::dedup_key(inbox_, dedup_key_of(delivery))},
       {"ConsistentRead", true},
       {"ProjectionExpression", "id"}});
  return response.body().contains("Item");
}

void RawInboxDynamoDb::commit(std::span<const BenchDelivery> batch, DispatchCounts& counts) {
  std::vector<const BenchDelivery*> pending = first_deliveries(batch, counts);
  if (pending.size() > 1) {
    drop_recorded(pending, counts);
  } else if (dedup_ == DedupCheck::kBeforeHandlers && pending.size() == 1 &&
             recorded(*pending.front())) {
    ++counts.skipped_duplicates;
    return;
  }
  const Timestamp now = kit::from_micros(now_micros());
  while (!pending.empty()) {
    nlohmann::json actions = nlohmann::json::array();
    for (const BenchDelivery* delivery : pending) {
      const InboxRecord record{.key = dedup_key_of(*delivery),
                               .event_type = std::string(kBenchEventType),
                               .occurred_at = kit::from_micros(delivery->occurred_at_micros),
                               .source = std::nullopt,
                               .causation_id = std::nullopt,
                               .correlation_id = std::nullopt};
      actions.push_back({{"Put",
                          {{"TableName", inbox_.name},
                           {"Item", dynamodb::detail::inbox::dedup_item(inbox_, record, now)},
                           {"ConditionExpression", "attribute_not_exists(id)"}}}});
      actions.push_back(
          {{"Put",
            {{"TableName", effects_},
             {"Item", effect_item(consumer_id_, delivery->message_id, kBenchPayload)}}}});
    }
    const dynamodb::detail::Response response =
        client_.call({.operation = "TransactWriteItems",
                      .table = inbox_.name,
                      .expected = {dynamodb::detail::ErrorKind::kTransactionCanceled,
                                   dynamodb::detail::ErrorKind::kTransactionConflict}},
                     {{"TransactItems", std::move(actions)}});
    if (response.ok()) {
      counts.processed += pending.size();
      return;
    }
    // Drop the messages recorded already (their dedup item's condition failed) and send
    // the rest again; a conflict with another transaction sends them all again.
    const auto& reasons = response.error().cancellation_reasons;
    std::vector<const BenchDelivery*> rest;
    for (std::size_t m = 0; m < pending.size(); ++m) {
      const std::size_t at = 2 * m;
      if (at < reasons.size() && reasons[at].code == "ConditionalCheckFailed") {
        ++counts.skipped_duplicates;
      } else {
        rest.push_back(pending[m]);
      }
    }
    pending = std::move(rest);
  }
}

}  // namespace docket::bench
