#include <string>

#include "docket/inbox_envelope.h"
#include "docket/utf8.h"
#include "inbox/text_checks.h"

namespace docket {
namespace {

void require_optional_utf8(std::string_view what, const std::optional<std::string>& value) {
  if (value) {
    require_valid_utf8(what, *value);
  }
}

}  // namespace

void validate_message_id(std::string_view what, std::string_view message_id) {
  inbox::require_text(what, message_id, kMaxMessageIdBytes, /*allow_blank=*/true,
                      "carry the producer's stable message id (the outbox id) verbatim");
}

void validate_envelope(const Envelope& envelope) {
  validate_message_id("message id", envelope.message_id);
  inbox::require_text("event type of message '" + envelope.message_id + "'", envelope.event_type,
                      kMaxEventTypeBytes, /*allow_blank=*/false,
                      "set the name the event's handlers are registered under");
  require_optional_utf8("source of message '" + envelope.message_id + "'", envelope.source);
  require_optional_utf8("causation id of message '" + envelope.message_id + "'",
                        envelope.causation_id);
  require_optional_utf8("correlation id of message '" + envelope.message_id + "'",
                        envelope.correlation_id);
}

}  // namespace docket
