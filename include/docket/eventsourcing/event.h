// An event as the caller hands it to the event store (NewEvent) and as the store
// returns it (RecordedEvent).
//
// The payload is opaque bytes: docket never parses it. The event id (UUIDv7) and, when
// the caller gives none, the occurred-at time are assigned by the store at append.
// Lineage (correlation id, causation id) is text for audit; the trace context is the
// validated W3C value (parse it with parse_trace_context(), which drops malformed
// headers, so a bad header never stops an append).
//
// Thread-safety: plain value types.
#ifndef DOCKET_EVENTSOURCING_EVENT_H_
#define DOCKET_EVENTSOURCING_EVENT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/event_type.h"
#include "docket/core/trace_context.h"
#include "docket/core/uuid.h"
#include "docket/eventsourcing/stream_id.h"

namespace docket {

// Longest correlation or causation id the event store accepts, in bytes.
inline constexpr std::size_t kMaxLineageIdBytes = 256;

struct EventMetadata {
  std::string correlation_id{};  // the business conversation; empty when none
  std::string causation_id{};    // the message or event that caused this one; empty when none
  std::optional<TraceContext> trace_context{};

  friend bool operator==(const EventMetadata&, const EventMetadata&) = default;
};

struct NewEvent {
  std::string type{};     // required: non-empty, valid UTF-8, <= kMaxEventTypeBytes
  std::string payload{};  // opaque bytes
  EventMetadata metadata{};
  std::optional<Timestamp> occurred_at{};  // default: the store's clock at append
};

struct RecordedEvent {
  StreamId stream;
  std::int64_t version = 0;  // 0 for the stream's first event
  // Store-wide, unique, >= 1 where the store's feed has global positions (see
  // EventStore::read_all); a feed of opaque cursors places events by FeedCursor.
  std::int64_t global_position = 0;
  Uuid event_id{};  // UUIDv7, assigned at append
  std::string type{};
  std::string payload{};
  EventMetadata metadata{};
  Timestamp occurred_at{};

  friend bool operator==(const RecordedEvent&, const RecordedEvent&) = default;
};

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_EVENT_H_
