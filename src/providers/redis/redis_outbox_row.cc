// The Redis outbox message's fields (redis_outbox_row.h).
#include "providers/redis/redis_outbox_row.h"

#include <string>
#include <utility>

#include "providers/kit/outbox_headers.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_hash_fields.h"

namespace docket::redis::detail {

std::vector<std::string> staged_outbox_fields(const OutboxRecord& r, std::string_view order_key) {
  std::vector<std::string> fields;
  const auto field = [&](std::string_view name, std::string value) {
    fields.emplace_back(name);
    fields.push_back(std::move(value));
  };
  const auto micros = [](Timestamp t) { return std::to_string(kit::to_micros(t)); };
  field("id", r.id);
  field("tenant", r.tenant);
  field("event_type", r.event_type);
  field("payload", r.payload);
  field("occurred_at", micros(r.occurred_at));
  field("created_at", micros(r.created_at));
  if (r.source) {
    field("source", *r.source);
  }
  if (r.causation_id) {
    field("causation_id", *r.causation_id);
  }
  if (r.correlation_id) {
    field("correlation_id", *r.correlation_id);
  }
  field("traceparent", r.traceparent);
  field("tracestate", r.tracestate);
  field("destination", r.destination);
  if (r.ordering_key) {
    field("ordering_key", *r.ordering_key);
  }
  field("headers", kit::encode_headers(r.headers));
  field("status", std::to_string(kit::outbox_status_code(OutboxStatus::kPending)));
  field("attempts", "0");
  field("next_attempt_at", micros(r.next_attempt_at));
  field("lease_token", "");
  field("lease_until", "0");
  field("order_key", std::string(order_key));
  return fields;
}

kit::OutboxRow outbox_row_of(std::span<const std::string> fields, std::string_view store) {
  const HashFields reader(fields, store, "the outbox message", "id");
  kit::OutboxRow row;
  OutboxRecord& r = row.record;
  r.id = reader.text("id");
  r.sequence = reader.integer("sequence");
  r.tenant = reader.text("tenant");
  r.event_type = reader.text("event_type");
  r.payload = reader.text("payload");
  r.occurred_at = reader.time("occurred_at");
  r.created_at = reader.time("created_at");
  r.source = reader.optional("source");
  r.causation_id = reader.optional("causation_id");
  r.correlation_id = reader.optional("correlation_id");
  r.traceparent = reader.text("traceparent");
  r.tracestate = reader.text("tracestate");
  r.destination = reader.text("destination");
  r.ordering_key = reader.optional("ordering_key");
  r.headers = kit::decode_headers(reader.text("headers"));
  r.status = kit::outbox_status_of_code(reader.integer("status"), store);
  r.attempts = static_cast<int>(reader.integer("attempts"));
  r.next_attempt_at = reader.time("next_attempt_at");
  r.last_error = reader.optional("last_error");
  r.done_at = reader.optional_time("done_at");
  row.lease_token = reader.text("lease_token");
  row.lease_until = reader.integer("lease_until");
  return row;
}

}  // namespace docket::redis::detail
