#include "dynamodb_raw_events.h"

#include "docket/core/uuid.h"
#include "docket/eventsourcing/stream_id.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/kit/http/request_count.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/time_codec.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

constexpr std::string_view kRawEventsSide = "raw DynamoDB events baseline";
constexpr std::string_view kAbsent = "attribute_not_exists(#stream)";
constexpr std::string_view kPresent = "attribute_exists(#stream)";

nlohmann::json stream_name() {
  return {{"#stream", dynamodb::detail::kStreamAttribute}};
}

}  // namespace

RawEventsDynamoDb::RawEventsDynamoDb(const std::string& url)
    : client_(dynamodb::detail::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()}}),
      table_(client_.url().table_name(dynamodb::detail::kEventsTableBase)) {}

std::string RawEventsDynamoDb::stream_key(std::string_view aggregate_type,
                                          std::string_view aggregate_id) const {
  const StreamId stream(TenantId(kBenchStreamTenant), aggregate_type, aggregate_id);
  return kit::stream_key(keys::Provider::kDynamoDb, stream).value;
}

void RawEventsDynamoDb::append(const AppendCall& call, StreamVersions& versions,
                               AppendCounts& counts) {
  const std::int64_t expected = versions.get(call.stream);
  const StreamId stream(TenantId(kBenchStreamTenant), call.aggregate_type, call.aggregate_id);
  const std::string key = kit::stream_key(keys::Provider::kDynamoDb, stream).value;
  const Timestamp at = kit::from_micros(now_micros());
  const auto item = [&](std::size_t e) {
    return dynamodb::detail::event_item(
        key, RecordedEvent{.stream = stream,
                           .version = expected + 1 + static_cast<std::int64_t>(e),
                           .global_position = 0,
                           .event_id = Uuid::parse(call.ids->id(call.first_id + e)).value(),
                           .type = std::string(kBenchEventName),
                           .payload = std::string(kBenchEventBody),
                           .metadata = {},
                           .occurred_at = at});
  };
  bool applied = false;
  if (expected == -1 && call.events == 1) {
    applied = client_
                  .call({.operation = "PutItem", .table = table_},
                        {{"TableName", table_},
                         {"Item", item(0)},
                         {"ConditionExpression", kAbsent},
                         {"ExpressionAttributeNames", stream_name()}})
                  .ok();
  } else {
    nlohmann::json actions = nlohmann::json::array();
    if (expected >= 0) {
      actions.push_back({{"ConditionCheck",
                          {{"TableName", table_},
                           {"Key", dynamodb::detail::event_key(key, expected)},
                           {"ConditionExpression", kPresent},
                           {"ExpressionAttributeNames", stream_name()}}}});
    }
    for (std::size_t e = 0; e < call.events; ++e) {
      actions.push_back({{"Put",
                          {{"TableName", table_},
                           {"Item", item(e)},
                           {"ConditionExpression", kAbsent},
                           {"ExpressionAttributeNames", stream_name()}}}});
    }
    applied = client_
                  .call({.operation = "TransactWriteItems",
                         .table = table_,
                         .expected = {dynamodb::detail::ErrorKind::kConditionalCheckFailed,
                                      dynamodb::detail::ErrorKind::kTransactionCanceled,
                                      dynamodb::detail::ErrorKind::kTransactionConflict}},
                        {{"TransactItems", std::move(actions)}})
                  .ok();
  }
  if (!applied) {  // a stale expectation, or a concurrent appender took the version
    versions.set(call.stream, stream_version(key));
    ++counts.conflicts;
    return;
  }
  versions.set(call.stream, expected + static_cast<std::int64_t>(call.events));
  ++counts.ok;
  counts.events += call.events;
}

std::int64_t RawEventsDynamoDb::stream_version(const std::string& key) {
  const dynamodb::detail::Response response = client_.call(
      {.operation = "Query", .table = table_, .replay = dynamodb::detail::Replay::kSafe},
      {{"TableName", table_},
       {"KeyConditionExpression", "#stream = :stream"},
       {"ExpressionAttributeNames",
        {{"#stream", dynamodb::detail::kStreamAttribute},
         {"#version", dynamodb::detail::kVersionAttribute}}},
       {"ExpressionAttributeValues", {{":stream", dynamodb::detail::string_value(key)}}},
       {"ProjectionExpression", "#version"},
       {"ScanIndexForward", false},
       {"Limit", 1},
       {"ConsistentRead", true}});
  for (const nlohmann::json& item : response.body().value("Items", nlohmann::json::array())) {
    return dynamodb::detail::ItemReader(item, kRawEventsSide)
        .number(dynamodb::detail::kVersionAttribute);
  }
  return -1;
}

std::size_t RawEventsDynamoDb::load(std::string_view aggregate_type,
                                    std::string_view aggregate_id) {
  const std::string key = stream_key(aggregate_type, aggregate_id);
  const nlohmann::json items = dynamodb::detail::query_all(
      client_, {{"TableName", table_},
                {"KeyConditionExpression", "#stream = :stream"},
                {"ExpressionAttributeNames", stream_name()},
                {"ExpressionAttributeValues", {{":stream", dynamodb::detail::string_value(key)}}},
                {"ConsistentRead", true}});
  for (const nlohmann::json& item : items) {
    sink_ += item.size();
  }
  return items.size();
}

}  // namespace docket::bench
