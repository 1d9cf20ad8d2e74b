#include "providers/sqlite/sqlite_outbox_rows.h"

#include <algorithm>
#include <string>

#include "providers/kit/outbox_row.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"

namespace docket::sqlite::detail {
namespace {

Timestamp time_at(const Value& value) {
  return kit::from_micros(std::get<std::int64_t>(value));
}

std::optional<std::string> optional_text(const Value& value) {
  if (std::holds_alternative<std::nullptr_t>(value)) {
    return std::nullopt;
  }
  return std::get<std::string>(value);
}

Value text_or_null(const std::optional<std::string>& text) {
  return text ? Value(*text) : Value(nullptr);
}

}  // namespace

OutboxRecord row_to_record(const Row& row) {
  OutboxRecord r;
  r.sequence = std::get<std::int64_t>(row.at(0));
  r.id = std::get<std::string>(row.at(1));
  r.tenant = std::get<std::string>(row.at(2));
  r.event_type = std::get<std::string>(row.at(3));
  r.payload = std::get<std::string>(row.at(4));
  r.occurred_at = time_at(row.at(5));
  r.source = optional_text(row.at(6));
  r.causation_id = optional_text(row.at(7));
  r.correlation_id = optional_text(row.at(8));
  r.traceparent = std::get<std::string>(row.at(9));
  r.tracestate = std::get<std::string>(row.at(10));
  r.created_at = time_at(row.at(11));
  r.status = kit::outbox_status_of_code(std::get<std::int64_t>(row.at(12)), "SQLite outbox");
  r.attempts = static_cast<int>(std::get<std::int64_t>(row.at(13)));
  r.next_attempt_at = time_at(row.at(14));
  r.last_error = optional_text(row.at(15));
  if (!std::holds_alternative<std::nullptr_t>(row.at(16))) {
    r.done_at = time_at(row.at(16));
  }
  r.destination = std::get<std::string>(row.at(17));
  r.ordering_key = optional_text(row.at(18));
  r.headers = kit::decode_headers(optional_text(row.at(19)).value_or(""));
  return r;
}

std::vector<OutboxRecord> rows_to_records(const std::vector<Row>& rows) {
  std::vector<OutboxRecord> records;
  records.reserve(rows.size());
  for (const Row& row : rows) {
    records.push_back(row_to_record(row));
  }
  // RETURNING gives no order; every caller wants sequence order.
  std::sort(records.begin(), records.end(),
            [](const auto& a, const auto& b) { return a.sequence < b.sequence; });
  return records;
}

std::vector<Value> record_to_params(const OutboxRecord& r) {
  return {r.id,
          r.tenant,
          r.event_type,
          r.payload,
          kit::to_micros(r.occurred_at),
          text_or_null(r.source),
          text_or_null(r.causation_id),
          text_or_null(r.correlation_id),
          r.traceparent,
          r.tracestate,
          kit::to_micros(r.created_at),
          std::int64_t{0},
          kit::to_micros(r.next_attempt_at),
          r.destination,
          text_or_null(r.ordering_key),
          r.headers.empty() ? Value(nullptr) : Value(kit::encode_headers(r.headers))};
}

}  // namespace docket::sqlite::detail
