#include "inbox/dispatch_parts.h"

#include <exception>
#include <functional>

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

void run_after_commit(AfterCommitActions& actions) {
  std::exception_ptr first;
  for (std::function<void()>& action : actions) {
    try {
      action();
    } catch (...) {
      if (!first) {
        first = std::current_exception();
      }
    }
  }
  actions.clear();
  if (first) {
    std::rethrow_exception(first);
  }
}

MessageStart observed_start(const Envelope& envelope, std::string_view consumer_id,
                            const TenantId& tenant, bool batched) noexcept {
  return MessageStart{.role = MessageRole::kProcess,
                      .consumer_or_destination = consumer_id,
                      .message_id = envelope.message_id,
                      .event_type = envelope.event_type,
                      .tenant = tenant.value(),
                      .traceparent = envelope.traceparent,
                      .tracestate = envelope.tracestate,
                      .attempt = 1,
                      .batched = batched};
}

MessageOutcome observed_outcome(DispatchOutcome outcome) noexcept {
  switch (outcome) {
    case DispatchOutcome::kProcessed:
      return MessageOutcome::kProcessed;
    case DispatchOutcome::kSkippedDuplicate:
      return MessageOutcome::kSkippedDuplicate;
    case DispatchOutcome::kUnhandled:
      return MessageOutcome::kUnhandled;
  }
  return MessageOutcome::kFailed;
}

}  // namespace docket::inbox
