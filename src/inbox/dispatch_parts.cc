#include "inbox/dispatch_parts.h"

#include "docket/trace_context.h"

namespace docket::inbox {

InboxRecord make_record(const Envelope& envelope, std::string_view consumer_id,
                        const TenantId& tenant) {
  return InboxRecord{
      .key = DedupKey{tenant.value(), std::string(consumer_id), envelope.message_id},
      .event_type = envelope.event_type,
      .occurred_at = envelope.occurred_at,
      .source = envelope.source,
      .causation_id = envelope.causation_id,
      .correlation_id = envelope.correlation_id,
  };
}

MessageContext make_context(const Envelope& envelope, std::string_view consumer_id) {
  return MessageContext{
      .message_id = envelope.message_id,
      .consumer_id = std::string(consumer_id),
      .correlation_id = envelope.correlation_id,
      .causation_id = envelope.causation_id,
      // Never throws: malformed trace headers are absent, and processing continues.
      .trace = parse_trace_context(envelope.traceparent, envelope.tracestate),
  };
}

}  // namespace docket::inbox
