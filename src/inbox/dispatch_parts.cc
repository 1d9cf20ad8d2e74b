#include "inbox/dispatch_parts.h"

#include "docket/core/trace_context.h"

namespace docket::inbox {

InboxRecord make_record(const Envelope& envelope, std::string_view consumer_id,
                        const TenantId& tenant) {
  InboxRecord record;
  record.key = DedupKey{tenant.value(), std::string(consumer_id), {}};
  fill_record(record, envelope);
  return record;
}

void fill_record(InboxRecord& record, const Envelope& envelope) {
  record.key.message_id.assign(envelope.message_id);
  record.event_type.assign(envelope.event_type);
  record.occurred_at = envelope.occurred_at;
  record.source = envelope.source;
  record.causation_id = envelope.causation_id;
  record.correlation_id = envelope.correlation_id;
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
