// The outbox's items (cosmos_outbox_item.h).
#include "providers/cosmos/cosmos_outbox_item.h"

#include <optional>
#include <string>

#include "docket/core/error.h"
#include "docket/outbox/outbox_schema.h"
#include "providers/cosmos/cosmos_exact_time.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/kit/base64.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail::outbox {
namespace {

using kit::from_micros;
using kit::to_micros;

nlohmann::json outbox_text_or_null(const std::optional<std::string>& text) {
  return text ? nlohmann::json(*text) : nlohmann::json(nullptr);
}

// Reads the properties of one item, naming it and the property in what it throws.
class OutboxItemReader {
 public:
  OutboxItemReader(const nlohmann::json& item, std::string where)
      : item_(item), where_(std::move(where)) {}

  const nlohmann::json* find(std::string_view name) const {
    const auto it = item_.find(std::string(name));
    return it == item_.end() || it->is_null() ? nullptr : &*it;
  }
  std::string text(std::string_view name) const {
    const nlohmann::json* value = find(name);
    if (value == nullptr || !value->is_string()) {
      fail(name, "a string");
    }
    return value->get<std::string>();
  }
  std::optional<std::string> optional_text(std::string_view name) const {
    return find(name) == nullptr ? std::nullopt : std::optional<std::string>(text(name));
  }
  std::int64_t number(std::string_view name) const {
    const nlohmann::json* value = find(name);
    if (value == nullptr || !value->is_number_integer()) {
      fail(name, "an integer");
    }
    return value->get<std::int64_t>();
  }
  Timestamp exact_time(std::string_view name) const {
    const nlohmann::json* value = find(name);
    const std::optional<Timestamp> time =
        value == nullptr ? std::nullopt : detail::exact_time_of(*value);
    if (!time) {
      fail(name, "decimal text of Unix microseconds");
    }
    return *time;
  }
  std::optional<std::int64_t> optional_number(std::string_view name) const {
    return find(name) == nullptr ? std::nullopt : std::optional<std::int64_t>(number(name));
  }
  [[noreturn]] void fail(std::string_view name, std::string_view wanted) const {
    throw InfrastructureError(where_ + ": property '" + std::string(name) + "' is not " +
                              std::string(wanted) +
                              "; the item was not written by docket or was changed outside it");
  }

 private:
  const nlohmann::json& item_;
  std::string where_;
};

}  // namespace

SequenceCounter sequence_counter(std::string_view prefix) {
  return {.container = std::string(prefix) + std::string(kSequencesContainerBase),
          .id = std::string(kCounterId)};
}

void number_item(nlohmann::json& item, std::int64_t sequence) {
  item[std::string(kSequence)] = sequence;
  item[std::string(kPendingSequence)] = sequence;
}

nlohmann::json outbox_item(const kit::OutboxRow& row) {
  const OutboxRecord& r = row.record;
  nlohmann::json item = {
      {kTableProperty, kOutboxTable},
      {kSequence, r.sequence},
      {"status", kit::outbox_status_code(r.status)},
      {"tenant", r.tenant},
      {"eventType", r.event_type},
      {"payload", kit::base64_encode(r.payload)},
      {"occurredAt", detail::exact_time(r.occurred_at)},  // the caller's: any time
      {"createdAt", to_micros(r.created_at)},
      {"source", outbox_text_or_null(r.source)},
      {"causationId", outbox_text_or_null(r.causation_id)},
      {"correlationId", outbox_text_or_null(r.correlation_id)},
      {"traceparent", r.traceparent},
      {"tracestate", r.tracestate},
      {"attempts", r.attempts},
      {"nextAttemptAt", to_micros(r.next_attempt_at)},
      {"lastError", outbox_text_or_null(r.last_error)},
      {"doneAt", r.done_at ? nlohmann::json(to_micros(*r.done_at)) : nlohmann::json(nullptr)},
      {"leaseToken",
       row.lease_token.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.lease_token)},
      {"leaseUntil",
       row.lease_token.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.lease_until)},
      {"destination", r.destination},
      {"orderingKey", outbox_text_or_null(r.ordering_key)},
      {"headers", kit::encode_headers(r.headers)}};
  if (r.status == OutboxStatus::kPending) {
    item[std::string(kPendingSequence)] = r.sequence;
  } else if (r.status == OutboxStatus::kParked) {
    item[std::string(kParkedSequence)] = r.sequence;
  }
  return item;
}

kit::OutboxRow outbox_row_of(const nlohmann::json& item, std::string_view store) {
  const std::string id = item.is_object() ? item.value("id", std::string()) : std::string();
  const std::string where = std::string(store) + ", outbox item '" + id + "'";
  if (!item.is_object() || id.empty()) {
    throw InfrastructureError(where + ": not an item with an id; was it written by docket?");
  }
  const OutboxItemReader reader(item, where);
  kit::OutboxRow row;
  OutboxRecord& r = row.record;
  r.id = id;
  r.sequence = reader.number(kSequence);
  r.status = kit::outbox_status_of_code(reader.number("status"), where);
  r.tenant = reader.text("tenant");
  r.event_type = reader.text("eventType");
  const std::optional<std::string> payload = kit::base64_decode(reader.text("payload"));
  if (!payload) {
    reader.fail("payload", "base64");
  }
  r.payload = *payload;
  r.occurred_at = reader.exact_time("occurredAt");
  r.created_at = from_micros(reader.number("createdAt"));
  r.source = reader.optional_text("source");
  r.causation_id = reader.optional_text("causationId");
  r.correlation_id = reader.optional_text("correlationId");
  r.traceparent = reader.text("traceparent");
  r.tracestate = reader.text("tracestate");
  r.attempts = static_cast<int>(reader.number("attempts"));
  r.next_attempt_at = from_micros(reader.number("nextAttemptAt"));
  r.last_error = reader.optional_text("lastError");
  if (const std::optional<std::int64_t> done = reader.optional_number("doneAt")) {
    r.done_at = from_micros(*done);
  }
  row.lease_token = reader.optional_text("leaseToken").value_or("");
  row.lease_until = reader.optional_number("leaseUntil").value_or(0);
  r.destination = reader.text("destination");
  r.ordering_key = reader.optional_text("orderingKey");
  r.headers = kit::decode_headers(reader.text("headers"));
  return row;
}

}  // namespace docket::cosmos::detail::outbox
