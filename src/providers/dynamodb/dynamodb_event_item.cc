#include "providers/dynamodb/dynamodb_event_item.h"

#include <optional>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "docket/core/trace_context.h"
#include "docket/core/uuid.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/kit/stored_event.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail {
namespace {

constexpr std::string_view kEventId = "event_id";
constexpr std::string_view kType = "type";
constexpr std::string_view kPayload = "payload";
constexpr std::string_view kOccurredAt = "occurred_at";
constexpr std::string_view kCorrelationId = "correlation_id";
constexpr std::string_view kCausationId = "causation_id";
constexpr std::string_view kTraceparent = "traceparent";
constexpr std::string_view kTracestate = "tracestate";

void put_if_not_empty(nlohmann::json& item, std::string_view name, std::string_view text) {
  if (!text.empty()) {
    item[std::string(name)] = string_value(text);
  }
}

}  // namespace

TableSchema events_table_schema(std::string table_name) {
  return TableSchema{.name = std::move(table_name),
                     .partition_key = {std::string(kStreamAttribute), KeyType::kString},
                     .sort_key = KeyAttribute{std::string(kVersionAttribute), KeyType::kNumber},
                     .global_indexes = {}};
}

nlohmann::json event_key(std::string_view stream_key, std::int64_t version) {
  return {{std::string(kStreamAttribute), string_value(stream_key)},
          {std::string(kVersionAttribute), number_value(version)}};
}

nlohmann::json event_item(std::string_view stream_key, const RecordedEvent& event) {
  nlohmann::json item = event_key(stream_key, event.version);
  item[std::string(kEventId)] = string_value(event.event_id.to_string());
  item[std::string(kType)] = string_value(event.type);
  item[std::string(kPayload)] = binary_value(event.payload);
  item[std::string(kOccurredAt)] = number_value(kit::to_micros(event.occurred_at));
  put_if_not_empty(item, kCorrelationId, event.metadata.correlation_id);
  put_if_not_empty(item, kCausationId, event.metadata.causation_id);
  if (const std::optional<TraceContext>& trace = event.metadata.trace_context) {
    item[std::string(kTraceparent)] = string_value(trace->parent.to_string());
    put_if_not_empty(item, kTracestate, trace->state);
  }
  return item;
}

RecordedEvent read_event_item(const nlohmann::json& item, const StreamId& stream,
                              std::string_view store) {
  const ItemReader reader(item, store);
  return RecordedEvent{.stream = stream,
                       .version = reader.number(kVersionAttribute),
                       .global_position = 0,
                       .event_id = kit::stored_event_id(reader.string(kEventId), stream, store),
                       .type = std::string(reader.string(kType)),
                       .payload = reader.binary(kPayload),
                       .metadata = kit::stored_event_metadata(
                           {.correlation_id = reader.optional_string(kCorrelationId),
                            .causation_id = reader.optional_string(kCausationId),
                            .traceparent = reader.optional_string(kTraceparent),
                            .tracestate = reader.optional_string(kTracestate)}),
                       .occurred_at = kit::from_micros(reader.number(kOccurredAt))};
}

nlohmann::json first_event_put_request(std::string_view table, nlohmann::json item) {
  return {{"TableName", table},
          {"Item", std::move(item)},
          {"ConditionExpression", "attribute_not_exists(#stream)"},
          {"ExpressionAttributeNames", {{"#stream", kStreamAttribute}}},
          {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}};
}

bool refusal_holds_event(const ServiceError& refusal, const StreamId& stream,
                         const RecordedEvent& event, std::string_view store) {
  return refusal.kind == ErrorKind::kConditionalCheckFailed && refusal.item.is_object() &&
         !refusal.item.empty() &&
         read_event_item(refusal.item, stream, store).event_id == event.event_id;
}

}  // namespace docket::dynamodb::detail
