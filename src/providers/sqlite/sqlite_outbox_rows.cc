#include "providers/sqlite/sqlite_outbox_rows.h"

#include <algorithm>
#include <optional>
#include <string>

#include "providers/kit/outbox_row.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"

namespace docket::sqlite::detail {
namespace {

enum Column : int {
  kSequence,
  kId,
  kTenant,
  kEventType,
  kPayload,
  kOccurredAt,
  kSource,
  kCausationId,
  kCorrelationId,
  kTraceparent,
  kTracestate,
  kCreatedAt,
  kStatus,
  kAttempts,
  kNextAttemptAt,
  kLastError,
  kDoneAt,
  kDestination,
  kOrderingKey,
  kHeaders,
};

Timestamp time_at(const RowView& row, int column) {
  return kit::from_micros(row.int64(column));
}

std::string text(const RowView& row, int column) {
  return std::string(row.bytes(column));
}

std::optional<std::string> optional_text(const RowView& row, int column) {
  if (row.is_null(column)) {
    return std::nullopt;
  }
  return text(row, column);
}

ParamView text_or_null(const std::optional<std::string>& value) {
  return value ? ParamView(std::string_view(*value)) : ParamView(nullptr);
}

}  // namespace

OutboxRecord read_outbox_record(const RowView& row) {
  OutboxRecord r;
  r.sequence = row.int64(kSequence);
  r.id = text(row, kId);
  r.tenant = text(row, kTenant);
  r.event_type = text(row, kEventType);
  r.payload = text(row, kPayload);
  r.occurred_at = time_at(row, kOccurredAt);
  r.source = optional_text(row, kSource);
  r.causation_id = optional_text(row, kCausationId);
  r.correlation_id = optional_text(row, kCorrelationId);
  r.traceparent = text(row, kTraceparent);
  r.tracestate = text(row, kTracestate);
  r.created_at = time_at(row, kCreatedAt);
  r.status = kit::outbox_status_of_code(row.int64(kStatus), "SQLite outbox");
  r.attempts = static_cast<int>(row.int64(kAttempts));
  r.next_attempt_at = time_at(row, kNextAttemptAt);
  r.last_error = optional_text(row, kLastError);
  if (!row.is_null(kDoneAt)) {
    r.done_at = time_at(row, kDoneAt);
  }
  r.destination = text(row, kDestination);
  r.ordering_key = optional_text(row, kOrderingKey);
  if (!row.is_null(kHeaders)) {
    r.headers = kit::decode_headers(row.bytes(kHeaders));
  }
  return r;
}

std::vector<OutboxRecord> query_outbox_records(Connection& connection, std::string_view sql,
                                               std::span<const ParamView> params) {
  std::vector<OutboxRecord> records;
  connection.for_each_row(sql, params,
                          [&](const RowView& row) { records.push_back(read_outbox_record(row)); });
  if (!std::is_sorted(records.begin(), records.end(),
                      [](const auto& a, const auto& b) { return a.sequence < b.sequence; })) {
    std::sort(records.begin(), records.end(),
              [](const auto& a, const auto& b) { return a.sequence < b.sequence; });
  }
  return records;
}

std::array<ParamView, 16> outbox_insert_params(const OutboxRecord& r,
                                               std::string& encoded_headers) {
  encoded_headers = r.headers.empty() ? std::string() : kit::encode_headers(r.headers);
  return {ParamView(std::string_view(r.id)),
          ParamView(std::string_view(r.tenant)),
          ParamView(std::string_view(r.event_type)),
          ParamView(std::string_view(r.payload)),
          ParamView(kit::to_micros(r.occurred_at)),
          text_or_null(r.source),
          text_or_null(r.causation_id),
          text_or_null(r.correlation_id),
          ParamView(std::string_view(r.traceparent)),
          ParamView(std::string_view(r.tracestate)),
          ParamView(kit::to_micros(r.created_at)),
          ParamView(std::int64_t{0}),
          ParamView(kit::to_micros(r.next_attempt_at)),
          ParamView(std::string_view(r.destination)),
          text_or_null(r.ordering_key),
          r.headers.empty() ? ParamView(nullptr) : ParamView(std::string_view(encoded_headers))};
}

}  // namespace docket::sqlite::detail
