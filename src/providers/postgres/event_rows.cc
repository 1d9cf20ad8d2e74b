#include "providers/postgres/event_rows.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "core/in_place.h"
#include "docket/error.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/exec.h"

namespace docket::postgres {
namespace {

// What load reads: the stream is the caller's, so its terms are not selected again.
// read_all adds them (DOCKET_STREAM_COLUMNS, from column kStreamColumn on).
#define DOCKET_EVENT_COLUMNS                                                        \
  "global_position, version, event_id::text, event_type, payload, correlation_id, " \
  "causation_id, traceparent, tracestate, occurred_at"
#define DOCKET_STREAM_COLUMNS ", tenant, aggregate_type, aggregate_id"
constexpr int kStreamColumn = 10;

std::optional<std::string_view> text_or_null(const std::string& text) {
  return text.empty() ? std::nullopt : std::optional<std::string_view>(text);
}

std::span<const std::byte> bytes_of(const std::string& text) {
  return std::as_bytes(std::span<const char>(text.data(), text.size()));
}

std::string optional_string(const Result& r, int row, int column) {
  const std::optional<std::string_view> text = r.optional_text(row, column);
  return text ? std::string(*text) : std::string();
}

// Row `row` of a result selected with DOCKET_EVENT_COLUMNS, in binary format (the
// integers and the payload as the server holds them, nothing printed and parsed back).
// `stream` is the stream asked for (load), or null to build it from the
// DOCKET_STREAM_COLUMNS that follow (read_all).
RecordedEvent recorded_event(const Result& r, int row, const StreamId* stream) {
  const std::int64_t position = r.int64(row, 0);
  const std::optional<Uuid> event_id = Uuid::parse(r.text(row, 2));
  if (!event_id) {
    throw InfrastructureError("PostgreSQL event store: the event at global position " +
                              std::to_string(position) + " has event_id '" +
                              std::string(r.text(row, 2)) + "', which is not a UUID docket reads");
  }
  EventMetadata metadata{.correlation_id = optional_string(r, row, 5),
                         .causation_id = optional_string(r, row, 6),
                         .trace_context = {}};
  if (const std::string traceparent = optional_string(r, row, 7); !traceparent.empty()) {
    metadata.trace_context = parse_trace_context(traceparent, optional_string(r, row, 8));
  }
  return RecordedEvent{.stream = stream != nullptr ? *stream
                                                   : StreamId(TenantId(r.text(row, kStreamColumn)),
                                                              r.text(row, kStreamColumn + 1),
                                                              r.text(row, kStreamColumn + 2)),
                       .version = r.int64(row, 1),
                       .global_position = position,
                       .event_id = *event_id,
                       .type = std::string(r.text(row, 3)),
                       .payload = r.bytea_string(row, 4),
                       .metadata = std::move(metadata),
                       .occurred_at = kit::from_micros(r.int64(row, 9))};
}

std::vector<RecordedEvent> recorded_events(const Result& r, const StreamId* stream) {
  std::vector<RecordedEvent> events;
  events.reserve(static_cast<std::size_t>(r.rows()));
  for (int row = 0; row < r.rows(); ++row) {
    events.emplace_back(core::InPlace{[&] { return recorded_event(r, row, stream); }});
  }
  return events;
}

std::int64_t stream_version(Connection& conn, const StreamId& stream) {
  const Result r =
      exec_prepared(conn, "docket_events_version",
                    "SELECT MAX(version) FROM docket_events "
                    "WHERE tenant = $1 AND aggregate_type = $2 AND aggregate_id = $3",
                    stream.tenant().value(), stream.aggregate_type(), stream.aggregate_id());
  return r.optional_int64(0, 0).value_or(kNoStreamVersion);
}

VersionConflict conflict(const StreamId& stream, ExpectedVersion expected, std::int64_t actual) {
  return VersionConflict{
      .subject = stream.describe(), .expected_version = expected.value(), .actual_version = actual};
}

std::vector<std::int64_t> reserve_positions(Connection& conn, std::int64_t tag, std::size_t n) {
  const Result r =
      exec_prepared(conn, "docket_events_reserve",
                    "SELECT p FROM unnest(docket_reserve_positions($1, $2::INTEGER)) AS p", tag, n);
  std::vector<std::int64_t> positions;
  positions.reserve(n);
  for (int row = 0; row < r.rows(); ++row) {
    positions.push_back(r.int64(row, 0));
  }
  return positions;
}

// Inserts `events` after version `current` at `positions`; false when the stream key
// refuses one (the caller rolls back to its savepoint).
bool insert_events(Connection& conn, const StreamId& stream, std::int64_t current,
                   const std::vector<std::int64_t>& positions,
                   const std::vector<RecordedEvent>& events, AppendSuccess& success) {
  success.new_version = current;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const RecordedEvent& event = events[i];
    const std::int64_t version = ++success.new_version;
    const TraceContext* trace =
        event.metadata.trace_context ? &*event.metadata.trace_context : nullptr;
    const std::string event_id = event.event_id.to_string();
    const std::optional<std::string> traceparent =
        trace != nullptr ? std::optional<std::string>(trace->parent.to_string()) : std::nullopt;
    const std::optional<std::string_view> tracestate =
        trace != nullptr ? text_or_null(trace->state) : std::nullopt;
    const Result r = try_exec_prepared(
        conn, "docket_events_insert",
        "INSERT INTO docket_events (global_position, tenant, aggregate_type, aggregate_id, "
        "version, event_id, event_type, payload, correlation_id, causation_id, traceparent, "
        "tracestate, occurred_at) VALUES ($1, $2, $3, $4, $5, $6::uuid, $7, $8, $9, $10, $11, "
        "$12, $13)",
        positions.at(i), stream.tenant().value(), stream.aggregate_type(), stream.aggregate_id(),
        version, event_id, event.type, bytes_of(event.payload),
        text_or_null(event.metadata.correlation_id), text_or_null(event.metadata.causation_id),
        traceparent, tracestate, kit::to_micros(event.occurred_at));
    if (!r.ok()) {
      if (r.sqlstate() == sqlstate::kUniqueViolation) {
        return false;
      }
      throw_failure(conn, r, "INSERT INTO docket_events");
    }
    success.events.push_back(AppendedEvent{.version = version,
                                           .global_position = positions.at(i),
                                           .event_id = event.event_id,
                                           .occurred_at = event.occurred_at});
  }
  return true;
}

}  // namespace

AppendResult append_events(Connection& conn, std::int64_t tag, const StreamId& stream,
                           ExpectedVersion expected, const std::vector<RecordedEvent>& events) {
  if (conn.idle()) {
    throw InfrastructureError("PostgreSQL event store: append to " + stream.describe() +
                              " needs an open transaction, and the connection has none (a "
                              "handler must not COMMIT or ROLLBACK itself); nothing was written");
  }
  const std::int64_t current = stream_version(conn, stream);
  if (!expected.matches(current)) {
    return conflict(stream, expected, current);
  }
  // Every append sets and releases the savepoint: prepared once per connection, so the
  // server does not parse them again for each append.
  exec_prepared(conn, "docket_events_savepoint", "SAVEPOINT docket_append");
  AppendSuccess success{.new_version = current, .events = {}};
  success.events.reserve(events.size());
  bool inserted = false;
  try {
    const std::vector<std::int64_t> positions = reserve_positions(conn, tag, events.size());
    inserted = insert_events(conn, stream, current, positions, events, success);
  } catch (...) {
    try_exec(conn, "ROLLBACK TO SAVEPOINT docket_append");
    throw;
  }
  if (inserted) {
    exec_prepared(conn, "docket_events_release", "RELEASE SAVEPOINT docket_append");
    return success;
  }
  // A concurrent appender committed one of these versions first: the stream key is the
  // final guard (READ COMMITTED lets both pass the version check).
  exec(conn, "ROLLBACK TO SAVEPOINT docket_append");
  exec_prepared(conn, "docket_events_release", "RELEASE SAVEPOINT docket_append");
  return conflict(stream, expected, stream_version(conn, stream));
}

std::vector<RecordedEvent> load_events(Connection& conn, const StreamId& stream,
                                       std::int64_t from_version) {
  static constexpr std::string_view sql =
      "SELECT " DOCKET_EVENT_COLUMNS
      " FROM docket_events WHERE tenant = $1 AND aggregate_type = $2 "
      "AND aggregate_id = $3 AND version >= $4 ORDER BY version";
  return recorded_events(
      exec_prepared_binary(conn, "docket_events_load", sql, stream.tenant().value(),
                           stream.aggregate_type(), stream.aggregate_id(), from_version),
      &stream);
}

ReadAllPage read_events(Connection& conn, std::int64_t tag, std::int64_t from_position,
                        std::size_t limit, const TenantId* tenant) {
  static constexpr std::string_view all_sql =
      "SELECT " DOCKET_EVENT_COLUMNS DOCKET_STREAM_COLUMNS
      " FROM docket_events WHERE global_position >= $1 AND "
      "global_position < $2 ORDER BY global_position LIMIT $3";
  static constexpr std::string_view tenant_sql =
      "SELECT " DOCKET_EVENT_COLUMNS DOCKET_STREAM_COLUMNS
      " FROM docket_events WHERE tenant = $4 AND global_position >= $1 AND "
      "global_position < $2 ORDER BY global_position LIMIT $3";
  // Its own statement: the rows below are read with a later snapshot, which sees every
  // transaction the watermark found ended.
  const std::int64_t watermark =
      exec_prepared(conn, "docket_events_watermark", "SELECT docket_read_watermark($1)", tag)
          .int64(0, 0);
  const Result r = tenant == nullptr
                       ? exec_prepared_binary(conn, "docket_events_read_all", all_sql,
                                              from_position, watermark, limit)
                       : exec_prepared_binary(conn, "docket_events_read_tenant", tenant_sql,
                                              from_position, watermark, limit, tenant->value());
  ReadAllPage page{.events = recorded_events(r, nullptr), .next_position = from_position};
  if (!page.events.empty()) {
    page.next_position = page.events.back().global_position + 1;
  }
  return page;
}

#undef DOCKET_EVENT_COLUMNS
#undef DOCKET_STREAM_COLUMNS

}  // namespace docket::postgres
