// One Redis event's fields (redis_event_fields.h).
#include "providers/redis/redis_event_fields.h"

#include <optional>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "providers/kit/stored_event.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_hash_fields.h"

namespace docket::redis::detail {

std::vector<std::string> event_fields(const RecordedEvent& event) {
  std::vector<std::string> fields;
  const auto field = [&](std::string_view name, std::string value) {
    fields.emplace_back(name);
    fields.push_back(std::move(value));
  };
  const auto field_if_any = [&](std::string_view name, const std::string& value) {
    if (!value.empty()) {
      field(name, value);
    }
  };
  field("tenant", event.stream.tenant().value());
  field("aggregate_type", event.stream.aggregate_type());
  field("aggregate_id", event.stream.aggregate_id());
  field("event_id", event.event_id.to_string());
  field("type", event.type);
  field("payload", event.payload);
  field("occurred_at", std::to_string(kit::to_micros(event.occurred_at)));
  field_if_any("correlation_id", event.metadata.correlation_id);
  field_if_any("causation_id", event.metadata.causation_id);
  if (const std::optional<TraceContext>& trace = event.metadata.trace_context) {
    field("traceparent", trace->parent.to_string());
    field_if_any("tracestate", trace->state);
  }
  return fields;
}

RecordedEvent event_of(std::span<const std::string> pairs, std::string_view store) {
  const HashFields fields(pairs, store, "the event at position", "position");
  const auto stream = [&]() -> StreamId {
    try {
      return StreamId(TenantId::from_stored(fields.text("tenant")), fields.text("aggregate_type"),
                      fields.text("aggregate_id"));
    } catch (const InvalidInputError& e) {
      fields.refuse(
          "tenant",
          std::string("with aggregate_type and aggregate_id names no stream (") + e.what() + ")");
    }
  }();
  const std::optional<std::string> correlation = fields.optional("correlation_id");
  const std::optional<std::string> causation = fields.optional("causation_id");
  const std::optional<std::string> traceparent = fields.optional("traceparent");
  const std::optional<std::string> tracestate = fields.optional("tracestate");
  RecordedEvent event{.stream = stream,
                      .version = fields.integer("version"),
                      .global_position = fields.integer("position"),
                      .event_id = kit::stored_event_id(fields.text("event_id"), stream, store),
                      .type = fields.text("type"),
                      .payload = fields.text("payload"),
                      .metadata = kit::stored_event_metadata({.correlation_id = correlation,
                                                              .causation_id = causation,
                                                              .traceparent = traceparent,
                                                              .tracestate = tracestate}),
                      .occurred_at = fields.time("occurred_at")};
  return event;
}

}  // namespace docket::redis::detail
