// What a producer stages in its outbox, and the row the outbox keeps for it.
//
// A staged message gets a UUIDv7 id (sortable, generated unless supplied), the ambient
// tenant, its event type and payload, when it occurred, its lineage (source, causation,
// correlation), the W3C trace context, and its route: a destination, an optional
// ordering key and application headers. The id travels verbatim through every
// transport and becomes the consumer's inbox message id, so redeliveries of one row
// are collapsed by the inbox.
//
// Thread-safety: plain value types; the functions are pure.
#ifndef DOCKET_OUTBOX_OUTBOX_MESSAGE_H_
#define DOCKET_OUTBOX_OUTBOX_MESSAGE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/message_header.h"
#include "docket/core/uuid.h"
#include "docket/inbox/inbox_envelope.h"

namespace docket {

// Limits on a message's route, in bytes, checked by Outbox::stage. The destination and
// the ordering key fit a broker's short string (AMQP's shortstr is 255 bytes); the
// headers, names and values together, stay far below every store's row and every
// broker's frame limit.
inline constexpr std::size_t kMaxDestinationBytes = 255;
inline constexpr std::size_t kMaxOrderingKeyBytes = 255;
inline constexpr std::size_t kMaxHeaderCount = 64;
inline constexpr std::size_t kMaxHeaderNameBytes = 255;
inline constexpr std::size_t kMaxHeadersBytes = 16 * 1024;

struct OutboxMessage {
  std::string event_type{};  // required: the name consumers' handlers are registered under
  std::string payload{};     // the encoded event (e.g. JsonCodec<T>().encode(event))

  // Absent: a fresh Uuid::v7(). Present: must be a version-7 UUID (not nil).
  std::optional<Uuid> id{};
  // Absent: the outbox clock's now() at staging.
  std::optional<Timestamp> occurred_at{};

  // Lineage. Absent causation / correlation id: taken from the message being handled
  // on this thread (MessageContextScope::current()), so a follow-up message names the
  // message that caused it and stays in its conversation.
  std::optional<std::string> source{};
  std::optional<std::string> causation_id{};
  std::optional<std::string> correlation_id{};

  // W3C trace context headers. Empty traceparent: the current message's, if any.
  std::string traceparent{};
  std::string tracestate{};

  // The route. `destination`: where the transport publishes it (a topic, an exchange, a
  // subject, in the transport's own terms); empty: the default route, the event type,
  // which staging stores. UTF-8 without NUL, at most kMaxDestinationBytes.
  std::string destination{};
  // Messages of one tenant with the same ordering key are handed to relays in the
  // order they were staged, each only once every earlier one is done or skipped
  // (OutboxStore::claim). Absent: never held back. Present: not empty, UTF-8 without
  // NUL, at most kMaxOrderingKeyBytes.
  std::optional<std::string> ordering_key{};
  // Carried verbatim to consumers, in this order. Names are unique, non-empty HTTP
  // tokens (RFC 9110: letters, digits and !#$%&'*+-.^_`|~) of at most
  // kMaxHeaderNameBytes, not beginning with "ce-" or "ce_" in any case (CloudEvents
  // attributes on the wire, docket/transports/cloudevents.h); values are UTF-8 without
  // NUL; at most kMaxHeaderCount of them, kMaxHeadersBytes in all (names and values).
  std::vector<MessageHeader> headers{};

  // Scheduled delivery: never published before this time (on the relay's clock).
  // Absent or past: due at once. At most kMaxDeliverAt, the latest time every store
  // holds. A scheduled message holds its ordering key until it is published, so the
  // key's later messages wait for it; Outbox::cancel() takes it back while pending.
  std::optional<Timestamp> deliver_at{};
};

// The latest deliver_at every store holds to the microsecond: 2^53 - 1 microseconds
// after the Unix epoch, 2255-06-05T23:47:34.740991Z (PostgreSQL's stores convert
// microseconds to a timestamp through a double, exact up to there).
inline constexpr Timestamp kMaxDeliverAt{std::chrono::microseconds(9'007'199'254'740'991)};

enum class OutboxStatus {
  kPending,    // waiting to be published (or for its next attempt)
  kDone,       // published; deleted by retention after a while
  kParked,     // failed max_attempts times; waits for an operator's replay or skip
  kSkipped,    // parked, then skipped by an operator (Outbox::skip): done, never published
  kCancelled,  // pending, then cancelled (Outbox::cancel) before a relay claimed it: done,
               // never published
};

// "pending", "done", "parked", "skipped" or "cancelled".
std::string_view to_string(OutboxStatus status) noexcept;

// One outbox row as stored.
struct OutboxRecord {
  std::int64_t sequence = 0;  // assigned by the store when staged: the feed position
  std::string id{};           // UUIDv7 text, the message id on every delivery
  std::string tenant{};       // the ambient tenant at staging ("__untenanted__" outside a scope)
  std::string event_type{};
  std::string payload{};
  Timestamp occurred_at{};
  std::optional<std::string> source{};
  std::optional<std::string> causation_id{};
  std::optional<std::string> correlation_id{};
  std::string traceparent{};
  std::string tracestate{};
  // The route as staged. An empty destination (a row staged before routing existed)
  // takes the default route: see destination_of().
  std::string destination{};
  std::optional<std::string> ordering_key{};
  std::vector<MessageHeader> headers{};
  Timestamp created_at{};  // staging time, from the outbox clock

  OutboxStatus status = OutboxStatus::kPending;
  int attempts = 0;             // failed publish attempts so far
  Timestamp next_attempt_at{};  // not claimed before this
  std::optional<std::string> last_error{};
  std::optional<Timestamp> done_at{};  // when it was done, or skipped
};

// The envelope a consumer receives for `record`: its id verbatim as the message id.
Envelope to_envelope(const OutboxRecord& record);

// Where `record` is published: its destination, or, where it has none, the default
// route, its event type.
std::string_view destination_of(const OutboxRecord& record) noexcept;

}  // namespace docket

#endif  // DOCKET_OUTBOX_OUTBOX_MESSAGE_H_
