// What every document provider's event store does alike when it reads an event back:
// the event id it stored as text, parsed, and the metadata it stored as optional texts
// (a text that is absent or empty is no lineage; a trace context that no longer parses
// is dropped, as parse_trace_context does). The field names and value encodings are the
// provider's own.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_STORED_EVENT_H_
#define DOCKET_PROVIDERS_KIT_STORED_EVENT_H_

#include <optional>
#include <string_view>

#include "docket/core/uuid.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/stream_id.h"

namespace docket::kit {

// The event id stored as `text`. Throws InfrastructureError naming `store`, `stream`
// and the text when it is not a UUID (a record docket did not write).
Uuid stored_event_id(std::string_view text, const StreamId& stream, std::string_view store);

struct StoredMetadata {
  std::optional<std::string_view> correlation_id{};
  std::optional<std::string_view> causation_id{};
  std::optional<std::string_view> traceparent{};
  std::optional<std::string_view> tracestate{};
};

EventMetadata stored_event_metadata(const StoredMetadata& stored);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_STORED_EVENT_H_
