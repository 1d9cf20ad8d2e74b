// The envelope a transport adapter hands to the inbox dispatcher: one delivery of one
// message.
//
// Only the message id takes part in deduplication (together with the ambient tenant
// and the consumer id). The message id must be stable across redeliveries: carry the
// producer's outbox id (UUIDv7 text) verbatim. Lineage (source, causation id,
// correlation id) is recorded for audit; the W3C trace context is observability only.
//
// Thread-safety: plain value type; validate_envelope() is a pure function.
#ifndef DOCKET_INBOX_INBOX_ENVELOPE_H_
#define DOCKET_INBOX_INBOX_ENVELOPE_H_

#include <cstddef>
#include <optional>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/event_type.h"

namespace docket {

// Longest message id accepted, in bytes. The id is a key column on every provider.
inline constexpr std::size_t kMaxMessageIdBytes = 256;

struct Envelope {
  std::string message_id{};  // required: non-empty, valid UTF-8, <= kMaxMessageIdBytes
  std::string event_type{};  // required: the name handlers were registered under
  std::string payload{};     // the encoded event, decoded by the event type's codec
  Timestamp occurred_at{};

  std::optional<std::string> source{};          // the producing service, for audit
  std::optional<std::string> causation_id{};    // the message that directly caused this one
  std::optional<std::string> correlation_id{};  // the business conversation id

  // W3C trace context headers as received; empty when absent. Malformed values are
  // ignored, never an error.
  std::string traceparent{};
  std::string tracestate{};
};

// Throws InvalidInputError naming the field when the message id is empty, not valid
// UTF-8 or longer than kMaxMessageIdBytes; when the event type is empty, not valid
// UTF-8 or longer than kMaxEventTypeBytes; or when a lineage field is present but not
// valid UTF-8. The trace context is not checked (see above).
void validate_envelope(const Envelope& envelope);

// Throws InvalidInputError when `message_id` is not an acceptable message id (the
// first rule of validate_envelope). `what` names the value in the message.
void validate_message_id(std::string_view what, std::string_view message_id);

}  // namespace docket

#endif  // DOCKET_INBOX_INBOX_ENVELOPE_H_
