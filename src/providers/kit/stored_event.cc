#include "providers/kit/stored_event.h"

#include <string>

#include "docket/core/error.h"
#include "docket/core/trace_context.h"

namespace docket::kit {

Uuid stored_event_id(std::string_view text, const StreamId& stream, std::string_view store) {
  const std::optional<Uuid> id = Uuid::parse(text);
  if (!id) {
    throw InfrastructureError(std::string(store) + ": an event of " + stream.describe() +
                              " has event id '" + std::string(text) +
                              "', not a UUID; the record was not written by docket: fix or "
                              "delete it");
  }
  return *id;
}

EventMetadata stored_event_metadata(const StoredMetadata& stored) {
  EventMetadata metadata;
  metadata.correlation_id = std::string(stored.correlation_id.value_or(""));
  metadata.causation_id = std::string(stored.causation_id.value_or(""));
  if (stored.traceparent) {
    metadata.trace_context =
        parse_trace_context(*stored.traceparent, stored.tracestate.value_or(""));
  }
  return metadata;
}

}  // namespace docket::kit
