#include "providers/firestore/firestore_outbox_document.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/time_codec.h"

namespace docket::firestore::detail::outbox {
namespace {

nlohmann::json outbox_optional_string(const std::optional<std::string>& text) {
  return text ? string_value(*text) : null_value();
}

OutboxStatus outbox_status_of(const std::string& text, const std::string& where) {
  for (const OutboxStatus status :
       {OutboxStatus::kPending, OutboxStatus::kDone, OutboxStatus::kParked, OutboxStatus::kSkipped,
        OutboxStatus::kCancelled}) {
    if (to_string(status) == text) {
      return status;
    }
  }
  throw InfrastructureError(
      where + ": field 'status' holds '" + text +
      "', which is no outbox status (pending, done, parked, skipped, cancelled); was "
      "the document written by docket?");
}

}  // namespace

SequenceCounter sequence_counter(std::string_view collection) {
  return {.collection = std::string(collection),
          .id = std::string(kCounterId),
          .field = std::string(kLastSequence)};
}

void number_fields(nlohmann::json& fields, std::int64_t sequence) {
  fields[std::string(kSequence)] = integer_value(sequence);
}

nlohmann::json outbox_fields(const kit::OutboxRow& row) {
  const OutboxRecord& r = row.record;
  return {{kSequence, integer_value(r.sequence)},
          {"tenant", string_value(r.tenant)},
          {"eventType", string_value(r.event_type)},
          {"payload", bytes_value(r.payload)},
          {"occurredAt", timestamp_value(r.occurred_at)},
          {"createdAt", timestamp_value(r.created_at)},
          {"source", outbox_optional_string(r.source)},
          {"causationId", outbox_optional_string(r.causation_id)},
          {"correlationId", outbox_optional_string(r.correlation_id)},
          {"traceparent", string_value(r.traceparent)},
          {"tracestate", string_value(r.tracestate)},
          {kStatus, string_value(to_string(r.status))},
          {"attempts", integer_value(r.attempts)},
          {kNextAttemptAt, timestamp_value(r.next_attempt_at)},
          {"lastError", outbox_optional_string(r.last_error)},
          {kDoneAt, r.done_at ? timestamp_value(*r.done_at) : null_value()},
          {"leaseToken", row.lease_token.empty() ? null_value() : string_value(row.lease_token)},
          {"leaseUntil", row.lease_token.empty() ? null_value() : integer_value(row.lease_until)},
          {"destination", string_value(r.destination)},
          {kOrderingKey, outbox_optional_string(r.ordering_key)},
          {"headers", string_value(kit::encode_headers(r.headers))}};
}

Write completion_write(std::string_view collection, std::string_view id, Timestamp now,
                       std::string update_time) {
  return Write{.collection = std::string(collection),
               .id = std::string(id),
               .fields = nlohmann::json{{kStatus, string_value(to_string(OutboxStatus::kDone))},
                                        {kDoneAt, timestamp_value(now)},
                                        {"leaseToken", null_value()},
                                        {"leaseUntil", null_value()}},
               .precondition = {.update_time = std::move(update_time)},
               .mask = std::vector<std::string>{std::string(kStatus), std::string(kDoneAt),
                                                "leaseToken", "leaseUntil"}};
}

kit::OutboxRow outbox_row_of(const Document& document, std::string_view store) {
  const std::string where = std::string(store) + ", document '" + document.id + "'";
  const FieldReader reader(document.fields, where);
  kit::OutboxRow row;
  OutboxRecord& r = row.record;
  r.id = document.id;
  r.sequence = reader.integer(kSequence);
  r.tenant = reader.string("tenant");
  r.event_type = reader.string("eventType");
  r.payload = reader.bytes("payload");
  r.occurred_at = reader.timestamp("occurredAt");
  r.created_at = reader.timestamp("createdAt");
  r.source = reader.optional_string("source");
  r.causation_id = reader.optional_string("causationId");
  r.correlation_id = reader.optional_string("correlationId");
  r.traceparent = reader.string("traceparent");
  r.tracestate = reader.string("tracestate");
  r.status = outbox_status_of(reader.string(kStatus), where);
  r.attempts = static_cast<int>(reader.integer("attempts"));
  r.next_attempt_at = reader.timestamp(kNextAttemptAt);
  r.last_error = reader.optional_string("lastError");
  r.done_at = reader.optional_timestamp(kDoneAt);
  row.lease_token = reader.optional_string("leaseToken").value_or("");
  row.lease_until = reader.optional_integer("leaseUntil").value_or(0);
  // Absent on a document staged before routing existed: the default route, no key, none.
  r.destination = reader.optional_string("destination").value_or("");
  r.ordering_key = reader.optional_string(kOrderingKey);
  r.headers = kit::decode_headers(reader.optional_string("headers").value_or(""));
  return row;
}

}  // namespace docket::firestore::detail::outbox
