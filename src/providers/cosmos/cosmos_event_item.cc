#include "providers/cosmos/cosmos_event_item.h"

#include <utility>

#include "docket/core/error.h"
#include "docket/core/trace_context.h"
#include "docket/keys/provider.h"
#include "providers/cosmos/cosmos_exact_time.h"
#include "providers/kit/base64.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/stored_event.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {

ItemFields::ItemFields(const nlohmann::json& item, std::string_view store)
    : item_(item), store_(store) {}

void ItemFields::fail(std::string_view field, std::string_view wanted) const {
  const std::string id = item_.is_object() && item_.contains("id") && item_["id"].is_string()
                             ? item_["id"].get<std::string>()
                             : std::string("?");
  throw InfrastructureError(std::string(store_) + ": item '" + id.substr(0, 200) + "' has no " +
                            std::string(wanted) + " field '" + std::string(field) +
                            "'; it was not written by docket: fix or delete it");
}

std::optional<std::string> ItemFields::optional_text(std::string_view field) const {
  const auto found = item_.find(field);
  if (found == item_.end() || found->is_null()) {
    return std::nullopt;
  }
  if (!found->is_string()) {
    fail(field, "text");
  }
  return found->get<std::string>();
}

std::string ItemFields::text(std::string_view field) const {
  std::optional<std::string> value = optional_text(field);
  if (!value) {
    fail(field, "text");
  }
  return std::move(*value);
}

std::optional<std::int64_t> ItemFields::optional_integer(std::string_view field) const {
  const auto found = item_.find(field);
  if (found == item_.end() || found->is_null()) {
    return std::nullopt;
  }
  if (found->is_number_integer()) {
    return found->get<std::int64_t>();
  }
  // A JavaScript server may answer a whole number as a double: exact below 2^53.
  if (found->is_number_float()) {
    const double value = found->get<double>();
    if (value == static_cast<double>(static_cast<std::int64_t>(value))) {
      return static_cast<std::int64_t>(value);
    }
  }
  fail(field, "integer");
}

std::int64_t ItemFields::integer(std::string_view field) const {
  const std::optional<std::int64_t> value = optional_integer(field);
  if (!value) {
    fail(field, "integer");
  }
  return *value;
}

Timestamp ItemFields::time(std::string_view field) const {
  return kit::from_micros(integer(field));
}

Timestamp ItemFields::text_time(std::string_view field) const {
  const auto found = item_.find(field);
  const std::optional<Timestamp> time = found == item_.end() ? std::nullopt : exact_time_of(*found);
  if (!time) {
    fail(field, "decimal time");
  }
  return *time;
}

std::string ItemFields::bytes(std::string_view field) const {
  std::optional<std::string> decoded = kit::base64_decode(text(field));
  if (!decoded) {
    fail(field, "base64");
  }
  return std::move(*decoded);
}

namespace event {
namespace {

constexpr std::string_view kEventId = "eventId";
constexpr std::string_view kType = "type";
constexpr std::string_view kPayload = "payload";
constexpr std::string_view kOccurredAt = "occurredAt";
constexpr std::string_view kVersion = "version";
constexpr std::string_view kCorrelationId = "correlationId";
constexpr std::string_view kCausationId = "causationId";
constexpr std::string_view kTraceparent = "traceparent";
constexpr std::string_view kTracestate = "tracestate";

void put_if_not_empty(nlohmann::json& item, std::string_view field, std::string_view text) {
  if (!text.empty()) {
    item[std::string(field)] = text;
  }
}

}  // namespace

std::string stream_key(const StreamId& stream) {
  return kit::stream_key(keys::Provider::kCosmosDb, stream).value;
}

std::string version_id(std::int64_t version) {
  return std::to_string(version);
}

nlohmann::json event_item(std::string_view key, const RecordedEvent& event) {
  nlohmann::json item = {{"id", version_id(event.version)},
                         {std::string(kStreamField), key},
                         {"tenant", event.stream.tenant().value()},
                         {"aggregateType", event.stream.aggregate_type()},
                         {"aggregateId", event.stream.aggregate_id()},
                         {std::string(kVersion), event.version},
                         {std::string(kEventId), event.event_id.to_string()},
                         {std::string(kType), event.type},
                         {std::string(kPayload), kit::base64_encode(event.payload)},
                         {std::string(kOccurredAt), exact_time(event.occurred_at)}};
  put_if_not_empty(item, kCorrelationId, event.metadata.correlation_id);
  put_if_not_empty(item, kCausationId, event.metadata.causation_id);
  if (const std::optional<TraceContext>& trace = event.metadata.trace_context) {
    item[std::string(kTraceparent)] = trace->parent.to_string();
    put_if_not_empty(item, kTracestate, trace->state);
  }
  return item;
}

RecordedEvent event_of(const nlohmann::json& item, const StreamId& stream, std::string_view store) {
  const ItemFields fields(item, store);
  const std::optional<std::string> correlation = fields.optional_text(kCorrelationId);
  const std::optional<std::string> causation = fields.optional_text(kCausationId);
  const std::optional<std::string> traceparent = fields.optional_text(kTraceparent);
  const std::optional<std::string> tracestate = fields.optional_text(kTracestate);
  const auto view = [](const std::optional<std::string>& text) {
    return text ? std::optional<std::string_view>(*text) : std::nullopt;
  };
  return RecordedEvent{.stream = stream,
                       .version = fields.integer(kVersion),
                       .global_position = 0,
                       .event_id = kit::stored_event_id(fields.text(kEventId), stream, store),
                       .type = fields.text(kType),
                       .payload = fields.bytes(kPayload),
                       .metadata = kit::stored_event_metadata({.correlation_id = view(correlation),
                                                               .causation_id = view(causation),
                                                               .traceparent = view(traceparent),
                                                               .tracestate = view(tracestate)}),
                       .occurred_at = fields.text_time(kOccurredAt)};
}

}  // namespace event
}  // namespace docket::cosmos::detail
