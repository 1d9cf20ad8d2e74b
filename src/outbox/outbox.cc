#include "docket/outbox/outbox.h"

#include <optional>
#include <string>

#include "core/delete_in_batches.h"
#include "docket/core/error.h"
#include "docket/core/message_context.h"
#include "docket/core/tenant.h"
#include "docket/core/trace_context.h"

namespace docket {
namespace {

Uuid message_id(const OutboxMessage& message) {
  if (!message.id) {
    return Uuid::v7();
  }
  if (message.id->is_nil()) {
    throw InvalidInputError(
        "outbox: the message id is the nil UUID; leave OutboxMessage::id empty to get a fresh "
        "UUIDv7, or pass one from Uuid::v7()");
  }
  if (message.id->version() != 7) {
    throw InvalidInputError("outbox: the message id " + message.id->to_string() + " is version " +
                            std::to_string(message.id->version()) +
                            ", not 7; outbox ids are UUIDv7 (sortable by creation); leave "
                            "OutboxMessage::id empty to get one");
  }
  return *message.id;
}

// The record for `message`, lineage and trace defaulted from the current message.
OutboxRecord make_record(const OutboxMessage& message, const Uuid& id, Timestamp now) {
  const MessageContext* current = MessageContextScope::current();
  OutboxRecord record;
  record.id = id.to_string();
  record.tenant = TenantScope::current_or_untenanted().value();
  record.event_type = message.event_type;
  record.payload = message.payload;
  record.occurred_at = message.occurred_at.value_or(now);
  record.source = message.source;
  record.causation_id = message.causation_id;
  record.correlation_id = message.correlation_id;
  if (current != nullptr) {
    if (!record.causation_id && !current->message_id.empty()) {
      record.causation_id = current->message_id;
    }
    if (!record.correlation_id) {
      record.correlation_id = current->correlation_id;
    }
  }
  // Only a trace context the consumer would read is written. A malformed traceparent
  // (any bytes: it may come straight from a request header) is dropped with its
  // tracestate, as W3C Trace Context has a receiver do, and counts as none given; a
  // malformed tracestate beside a valid traceparent is dropped alone; a later version's
  // appended fields are dropped too (written in the version 00 layout). Written
  // verbatim, bytes that are not UTF-8 would fail the whole unit of work at commit on a
  // store whose strings are UTF-8.
  if (const std::optional<TraceContext> trace =
          parse_trace_context(message.traceparent, message.tracestate)) {
    record.traceparent = trace->parent.to_string();
    record.tracestate = trace->state;
  }
  if (record.traceparent.empty() && current != nullptr && current->trace) {
    record.traceparent = current->trace->parent.to_string();
    record.tracestate = current->trace->state;
  }
  record.created_at = now;
  record.next_attempt_at = now;
  return record;
}

}  // namespace

Uuid Outbox::stage(HandlerTransaction& tx, const OutboxMessage& message) const {
  const Uuid id = message_id(message);
  const OutboxRecord record = make_record(message, id, clock_.now());
  // The envelope rules are the consumer's: a message the inbox would refuse is refused
  // here, before it is staged, rather than parked after max_attempts deliveries.
  validate_envelope(to_envelope(record));
  store_.insert(tx, record);
  return id;
}

std::vector<OutboxRecord> Outbox::parked(std::size_t limit, std::int64_t after_sequence) const {
  return store_.parked(after_sequence, limit);
}

bool Outbox::replay(std::string_view message_id) const {
  if (message_id.empty()) {
    throw InvalidInputError(
        "outbox replay: the message id is empty; pass the id of a parked "
        "message (Outbox::parked lists them)");
  }
  return store_.replay(message_id, clock_.now());
}

std::uint64_t Outbox::purge_done_before(Timestamp cutoff, std::size_t batch_size) const {
  if (batch_size == 0) {
    throw InvalidInputError(
        "outbox purge_done_before: batch size is 0; pass the most rows one short transaction "
        "may delete (e.g. 1000)");
  }
  return core::delete_in_batches(batch_size,
                                 [&] { return store_.purge_done_batch(cutoff, batch_size); });
}

}  // namespace docket
