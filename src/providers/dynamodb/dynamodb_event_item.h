// One event as an item of the events table (<table_prefix>docket_events):
//
//   stream          S  partition key: kit::stream_key (t:{tenant}:{type}:{id}, escaped)
//   version         N  sort key: 0 for the stream's first event
//   event_id        S  UUIDv7, canonical text
//   type            S  the event type
//   payload         B  the opaque payload, byte for byte
//   occurred_at     N  Unix microseconds (kit/time_codec.h)
//   correlation_id  S  only when not empty
//   causation_id    S  only when not empty
//   traceparent     S  only with a trace context; tracestate beside it when not empty
//
// The stream's terms are not stored apart from the key: a load names its stream.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EVENT_ITEM_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EVENT_ITEM_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/stream_id.h"
#include "providers/dynamodb/dynamodb_service_error.h"
#include "providers/dynamodb/dynamodb_table_schema.h"

namespace docket::dynamodb::detail {

inline constexpr std::string_view kEventsTableBase = "docket_events";
inline constexpr std::string_view kStreamAttribute = "stream";
inline constexpr std::string_view kVersionAttribute = "version";

TableSchema events_table_schema(std::string table_name);

// The primary key of `stream_key`'s event at `version`.
nlohmann::json event_key(std::string_view stream_key, std::int64_t version);

// The whole item of `event` under `stream_key`.
nlohmann::json event_item(std::string_view stream_key, const RecordedEvent& event);

// The event an item of `stream` holds. Throws InfrastructureError, naming `store`, for
// an item docket did not write.
RecordedEvent read_event_item(const nlohmann::json& item, const StreamId& stream,
                              std::string_view store);

// The PutItem of `item`, a stream's first event, conditional on its absence, and
// returning the old item when refused (ReturnValuesOnConditionCheckFailure ALL_OLD).
nlohmann::json first_event_put_request(std::string_view table, nlohmann::json item);

// Whether the refusal of a first_event_put_request for `event` of `stream` found
// `event` itself (by event id): a resend after an ambiguous failure whose first try was
// applied, which is a success, not a conflict.
bool refusal_holds_event(const ServiceError& refusal, const StreamId& stream,
                         const RecordedEvent& event, std::string_view store);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EVENT_ITEM_H_
