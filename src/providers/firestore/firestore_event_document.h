// One event as a document of the events collection ({prefix}docket_events), its id the
// event document id of src/keys for Firestore, t:{tenant}:{aggregateType}:{aggregateId}:
// {version} with every term percent-encoded (kit::event_document_id), and its fields:
//
//   tenant, aggregateType, aggregateId   stringValue   the stream, for the loads' query
//   version         integerValue   0 for the stream's first event
//   eventId         stringValue    UUIDv7, canonical text
//   type            stringValue    payload  bytesValue (byte for byte)
//   occurredAt      timestampValue (microseconds, exact)
//   correlationId, causationId, traceparent, tracestate   stringValue, only when not empty
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_EVENT_DOCUMENT_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_EVENT_DOCUMENT_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/stream_id.h"
#include "providers/firestore/firestore_documents.h"

namespace docket::firestore::detail::event {

inline constexpr std::string_view kCollection = "docket_events";

inline constexpr std::string_view kTenant = "tenant";
inline constexpr std::string_view kAggregateType = "aggregateType";
inline constexpr std::string_view kAggregateId = "aggregateId";
inline constexpr std::string_view kVersion = "version";
inline constexpr std::string_view kEventId = "eventId";

// The document id of `stream`'s event at `version` (src/keys).
std::string event_id(const StreamId& stream, std::int64_t version);

// The filters on `stream`'s three fields (every document of the stream), to be joined
// with all_of() and any further filter.
std::vector<nlohmann::json> stream_filters(const StreamId& stream);

// The whole document of `event` (its stream and version included).
nlohmann::json event_fields(const RecordedEvent& event);

// The event a document of `stream` holds. Throws InfrastructureError naming `store`,
// the document and the field when it is not a document event_fields() wrote.
RecordedEvent event_of(const Document& document, const StreamId& stream, std::string_view store);

}  // namespace docket::firestore::detail::event

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_EVENT_DOCUMENT_H_
