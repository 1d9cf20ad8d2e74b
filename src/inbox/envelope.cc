#include <string>

#include "docket/core/utf8.h"
#include "docket/inbox/inbox_envelope.h"
#include "inbox/text_checks.h"

namespace docket {
namespace {

// The labels below name the message, so they are composed only once a check has
// failed: building them for every valid envelope would cost allocations per dispatch.
std::string of_message(std::string_view field, const Envelope& envelope) {
  return std::string(field) + " of message '" + envelope.message_id + "'";
}

void require_optional_utf8(std::string_view field, const Envelope& envelope,
                           const std::optional<std::string>& value) {
  if (value && find_utf8_defect(*value)) {
    require_valid_utf8(of_message(field, envelope), *value);
  }
}

}  // namespace

void validate_message_id(std::string_view what, std::string_view message_id) {
  inbox::require_text(what, message_id, kMaxMessageIdBytes, /*allow_blank=*/true,
                      "carry the producer's stable message id (the outbox id) verbatim");
}

void validate_envelope(const Envelope& envelope) {
  validate_message_id("message id", envelope.message_id);
  if (inbox::text_problem("event type", envelope.event_type, kMaxEventTypeBytes,
                          /*allow_blank=*/false)) {
    inbox::require_text(of_message("event type", envelope), envelope.event_type, kMaxEventTypeBytes,
                        /*allow_blank=*/false,
                        "set the name the event's handlers are registered under");
  }
  require_optional_utf8("source", envelope, envelope.source);
  require_optional_utf8("causation id", envelope, envelope.causation_id);
  require_optional_utf8("correlation id", envelope, envelope.correlation_id);
}

}  // namespace docket
