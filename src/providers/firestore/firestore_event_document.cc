#include "providers/firestore/firestore_event_document.h"

#include <optional>
#include <vector>

#include "docket/core/trace_context.h"
#include "docket/keys/provider.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/stored_event.h"

namespace docket::firestore::detail::event {
namespace {

constexpr std::string_view kType = "type";
constexpr std::string_view kPayload = "payload";
constexpr std::string_view kOccurredAt = "occurredAt";
constexpr std::string_view kCorrelationId = "correlationId";
constexpr std::string_view kCausationId = "causationId";
constexpr std::string_view kTraceparent = "traceparent";
constexpr std::string_view kTracestate = "tracestate";

void put_if_not_empty(nlohmann::json& fields, std::string_view name, std::string_view text) {
  if (!text.empty()) {
    fields[std::string(name)] = string_value(text);
  }
}

}  // namespace

std::string event_id(const StreamId& stream, std::int64_t version) {
  return kit::event_document_id(keys::Provider::kFirestore, stream, version).value;
}

std::vector<nlohmann::json> stream_filters(const StreamId& stream) {
  return {field_filter(kTenant, "EQUAL", string_value(stream.tenant().value())),
          field_filter(kAggregateType, "EQUAL", string_value(stream.aggregate_type())),
          field_filter(kAggregateId, "EQUAL", string_value(stream.aggregate_id()))};
}

nlohmann::json event_fields(const RecordedEvent& event) {
  nlohmann::json fields = {{kTenant, string_value(event.stream.tenant().value())},
                           {kAggregateType, string_value(event.stream.aggregate_type())},
                           {kAggregateId, string_value(event.stream.aggregate_id())},
                           {kVersion, integer_value(event.version)},
                           {kEventId, string_value(event.event_id.to_string())},
                           {kType, string_value(event.type)},
                           {kPayload, bytes_value(event.payload)},
                           {kOccurredAt, timestamp_value(event.occurred_at)}};
  put_if_not_empty(fields, kCorrelationId, event.metadata.correlation_id);
  put_if_not_empty(fields, kCausationId, event.metadata.causation_id);
  if (const std::optional<TraceContext>& trace = event.metadata.trace_context) {
    fields[std::string(kTraceparent)] = string_value(trace->parent.to_string());
    put_if_not_empty(fields, kTracestate, trace->state);
  }
  return fields;
}

RecordedEvent event_of(const Document& document, const StreamId& stream, std::string_view store) {
  const FieldReader reader(document.fields,
                           std::string(store) + ", document '" + document.id + "'");
  const std::optional<std::string> correlation = reader.optional_string(kCorrelationId);
  const std::optional<std::string> causation = reader.optional_string(kCausationId);
  const std::optional<std::string> traceparent = reader.optional_string(kTraceparent);
  const std::optional<std::string> tracestate = reader.optional_string(kTracestate);
  return RecordedEvent{.stream = stream,
                       .version = reader.integer(kVersion),
                       .global_position = 0,
                       .event_id = kit::stored_event_id(reader.string(kEventId), stream, store),
                       .type = reader.string(kType),
                       .payload = reader.bytes(kPayload),
                       .metadata = kit::stored_event_metadata({.correlation_id = correlation,
                                                               .causation_id = causation,
                                                               .traceparent = traceparent,
                                                               .tracestate = tracestate}),
                       .occurred_at = reader.timestamp(kOccurredAt)};
}

}  // namespace docket::firestore::detail::event
