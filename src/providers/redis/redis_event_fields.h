// One event as the Redis event store keeps it: a hash at P event:{position}
// (redis_keyspace.h) holding the stream's terms (tenant, aggregate_type,
// aggregate_id), its version and global position (written by the commit script, which
// assigns both), the event id, type, payload and occurred_at (Unix microseconds), and
// its lineage where it has one (correlation_id, causation_id, traceparent, tracestate;
// absent when empty). The stream's terms let a feed read rebuild the StreamId without
// another read.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_EVENT_FIELDS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_EVENT_FIELDS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/eventsourcing/event.h"

namespace docket::redis::detail {

// The fields, name then value, of `event` (its version and position left to the
// commit script).
std::vector<std::string> event_fields(const RecordedEvent& event);

// The event a hash's fields (HGETALL's pairs) hold. Throws InfrastructureError naming
// `store` and the position when a field is missing or malformed.
RecordedEvent event_of(std::span<const std::string> fields, std::string_view store);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_EVENT_FIELDS_H_
