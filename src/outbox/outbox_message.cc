#include "docket/outbox/outbox_message.h"

namespace docket {

std::string_view to_string(OutboxStatus status) noexcept {
  switch (status) {
    case OutboxStatus::kPending:
      return "pending";
    case OutboxStatus::kDone:
      return "done";
    case OutboxStatus::kParked:
      return "parked";
    case OutboxStatus::kSkipped:
      return "skipped";
    case OutboxStatus::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

Envelope to_envelope(const OutboxRecord& record) {
  return Envelope{.message_id = record.id,
                  .event_type = record.event_type,
                  .payload = record.payload,
                  .occurred_at = record.occurred_at,
                  .source = record.source,
                  .causation_id = record.causation_id,
                  .correlation_id = record.correlation_id,
                  .traceparent = record.traceparent,
                  .tracestate = record.tracestate};
}

std::string_view destination_of(const OutboxRecord& record) noexcept {
  return record.destination.empty() ? std::string_view(record.event_type)
                                    : std::string_view(record.destination);
}

}  // namespace docket
