#include "providers/sqlite/sqlite_event_rows.h"

#include <sqlite3.h>

#include <array>
#include <optional>
#include <string>
#include <utility>

#include "docket/error.h"
#include "docket/inbox_errors.h"
#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {
namespace {

// What load reads: the stream is the caller's, so its terms are not selected again.
// read_all adds them (DOCKET_STREAM_COLUMNS, from column kStreamColumn on).
#define DOCKET_EVENT_COLUMNS                                                                \
  "global_position, version, event_id, event_type, payload, correlation_id, causation_id, " \
  "traceparent, tracestate, occurred_at"
#define DOCKET_STREAM_COLUMNS ", tenant, aggregate_type, aggregate_id"
constexpr std::size_t kStreamColumn = 10;

std::int64_t micros(Timestamp t) {
  return t.time_since_epoch().count();
}

ParamView view_or_null(const std::string& text) {
  return text.empty() ? ParamView(nullptr) : ParamView(std::string_view(text));
}

std::string& text_at(Row& row, std::size_t column) {
  return std::get<std::string>(row.at(column));
}

// The text of a nullable column, moved out of the row; empty for NULL.
std::string take_optional_text(Row& row, std::size_t column) {
  Value& value = row.at(column);
  return std::holds_alternative<std::nullptr_t>(value) ? std::string()
                                                       : std::move(text_at(row, column));
}

std::int64_t integer_at(const Row& row, std::size_t column) {
  return std::get<std::int64_t>(row.at(column));
}

// A row selected with DOCKET_EVENT_COLUMNS, its strings moved into the event. `stream`
// is the stream the caller asked for (load), or null to build it from the
// DOCKET_STREAM_COLUMNS that follow (read_all).
RecordedEvent recorded_event(Row& row, const StreamId* stream) {
  const std::int64_t position = integer_at(row, 0);
  const std::optional<Uuid> event_id = Uuid::parse(text_at(row, 2));
  if (!event_id) {
    throw InfrastructureError("SQLite event store: the event at global position " +
                              std::to_string(position) + " has event_id '" + text_at(row, 2) +
                              "', which is not a UUID; the docket_events row was changed outside "
                              "docket");
  }
  EventMetadata metadata{.correlation_id = take_optional_text(row, 5),
                         .causation_id = take_optional_text(row, 6),
                         .trace_context = {}};
  if (const std::string traceparent = take_optional_text(row, 7); !traceparent.empty()) {
    metadata.trace_context = parse_trace_context(traceparent, take_optional_text(row, 8));
  }
  return RecordedEvent{.stream = stream != nullptr ? *stream
                                                   : StreamId(TenantId(text_at(row, kStreamColumn)),
                                                              text_at(row, kStreamColumn + 1),
                                                              text_at(row, kStreamColumn + 2)),
                       .version = integer_at(row, 1),
                       .global_position = position,
                       .event_id = *event_id,
                       .type = std::move(text_at(row, 3)),
                       .payload = std::move(text_at(row, 4)),
                       .metadata = std::move(metadata),
                       .occurred_at = Timestamp(std::chrono::microseconds(integer_at(row, 9)))};
}

std::vector<RecordedEvent> recorded_events(std::vector<Row> rows, const StreamId* stream) {
  std::vector<RecordedEvent> events;
  events.reserve(rows.size());
  for (Row& row : rows) {
    events.push_back(recorded_event(row, stream));
  }
  return events;
}

std::int64_t stream_version(Transaction& tx, const StreamId& stream) {
  const std::array<ParamView, 3> params{stream.tenant().value(), stream.aggregate_type(),
                                        stream.aggregate_id()};
  const auto rows = tx.connection().query_views(
      "SELECT MAX(version) FROM docket_events "
      "WHERE tenant = ?1 AND aggregate_type = ?2 AND aggregate_id = ?3",
      params);
  const Value& max = rows.at(0).at(0);
  return std::holds_alternative<std::nullptr_t>(max) ? kNoStreamVersion
                                                     : std::get<std::int64_t>(max);
}

// SAVEPOINT docket_append; rolled back to and released unless released by keep().
class Savepoint {
 public:
  explicit Savepoint(Transaction& tx) : tx_(tx) { tx_.exec("SAVEPOINT docket_append"); }
  ~Savepoint() {
    if (!released_) {
      try {
        tx_.exec("ROLLBACK TO docket_append");
        tx_.exec("RELEASE docket_append");
      } catch (...) {  // SQLite ended the transaction itself; its owner sees that
      }
    }
  }
  Savepoint(const Savepoint&) = delete;
  Savepoint& operator=(const Savepoint&) = delete;

  void keep() {
    tx_.exec("RELEASE docket_append");
    released_ = true;
  }

 private:
  Transaction& tx_;
  bool released_ = false;
};

VersionConflict conflict(const StreamId& stream, ExpectedVersion expected, std::int64_t actual) {
  return VersionConflict{
      .subject = stream.describe(), .expected_version = expected.value(), .actual_version = actual};
}

// Inserts `events` after version `current`; nullopt when the stream key refuses one
// (a unique violation), with the caller's savepoint to roll back.
std::optional<AppendSuccess> insert_events(Transaction& tx, const StreamId& stream,
                                           std::int64_t current,
                                           const std::vector<RecordedEvent>& events) {
  AppendSuccess success{.new_version = current, .events = {}};
  success.events.reserve(events.size());
  for (const RecordedEvent& event : events) {
    const std::int64_t version = ++success.new_version;
    const TraceContext* trace =
        event.metadata.trace_context ? &*event.metadata.trace_context : nullptr;
    const std::string event_id = event.event_id.to_string();
    const std::string traceparent = trace != nullptr ? trace->parent.to_string() : std::string();
    // Bound as views: nothing of the event is copied into a parameter vector.
    const std::array<ParamView, 12> params{
        stream.tenant().value(),
        stream.aggregate_type(),
        stream.aggregate_id(),
        version,
        event_id,
        event.type,
        event.payload,
        view_or_null(event.metadata.correlation_id),
        view_or_null(event.metadata.causation_id),
        trace != nullptr ? ParamView(std::string_view(traceparent)) : ParamView(nullptr),
        trace != nullptr ? view_or_null(trace->state) : ParamView(nullptr),
        micros(event.occurred_at)};
    std::vector<Row> inserted;
    try {
      inserted = tx.connection().query_views(
          "INSERT INTO docket_events (tenant, aggregate_type, aggregate_id, version, event_id, "
          "event_type, payload, correlation_id, causation_id, traceparent, tracestate, "
          "occurred_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, CAST(?7 AS BLOB), ?8, ?9, ?10, ?11, ?12) "
          "RETURNING global_position",
          params);
    } catch (const UniqueViolationError&) {
      return std::nullopt;
    }
    success.events.push_back(AppendedEvent{.version = version,
                                           .global_position = integer_at(inserted.at(0), 0),
                                           .event_id = event.event_id,
                                           .occurred_at = event.occurred_at});
  }
  return success;
}

}  // namespace

AppendResult append_events(Transaction& tx, const StreamId& stream, ExpectedVersion expected,
                           const std::vector<RecordedEvent>& events) {
  if (sqlite3_get_autocommit(tx.native()) != 0) {
    throw InfrastructureError("SQLite event store: append to " + stream.describe() +
                              " needs an open transaction, and the connection has none (a "
                              "handler must not COMMIT or ROLLBACK through native()); nothing "
                              "was written");
  }
  const std::int64_t current = stream_version(tx, stream);
  if (!expected.matches(current)) {
    return conflict(stream, expected, current);
  }
  {
    Savepoint savepoint(tx);
    if (std::optional<AppendSuccess> success = insert_events(tx, stream, current, events)) {
      savepoint.keep();
      return std::move(*success);
    }
  }
  // Another writer holds one of these versions: the stream key is the final guard.
  // Under BEGIN IMMEDIATE no other writer commits meanwhile, so this is defence in
  // depth; the savepoint has dropped whatever this call inserted.
  return conflict(stream, expected, stream_version(tx, stream));
}

std::vector<RecordedEvent> load_events(Transaction& tx, const StreamId& stream,
                                       std::int64_t from_version) {
  static constexpr std::string_view sql =
      "SELECT " DOCKET_EVENT_COLUMNS
      " FROM docket_events WHERE tenant = ?1 AND aggregate_type = ?2 "
      "AND aggregate_id = ?3 AND version >= ?4 ORDER BY version";
  const std::array<ParamView, 4> params{stream.tenant().value(), stream.aggregate_type(),
                                        stream.aggregate_id(), from_version};
  return recorded_events(tx.connection().query_views(sql, params), &stream);
}

ReadAllPage read_events(Transaction& tx, std::int64_t from_position, std::size_t limit,
                        const TenantId* tenant) {
  static constexpr std::string_view all_sql =
      "SELECT " DOCKET_EVENT_COLUMNS DOCKET_STREAM_COLUMNS
      " FROM docket_events WHERE global_position >= ?1 ORDER BY global_position LIMIT ?2";
  static constexpr std::string_view tenant_sql =
      "SELECT " DOCKET_EVENT_COLUMNS DOCKET_STREAM_COLUMNS
      " FROM docket_events WHERE tenant = ?3 AND global_position >= ?1 "
      "ORDER BY global_position LIMIT ?2";
  auto rows = tenant == nullptr
                  ? tx.query(all_sql, {from_position, static_cast<std::int64_t>(limit)})
                  : tx.query(tenant_sql,
                             {from_position, static_cast<std::int64_t>(limit), tenant->value()});
  ReadAllPage page{.events = recorded_events(std::move(rows), nullptr),
                   .next_position = from_position};
  if (!page.events.empty()) {
    page.next_position = page.events.back().global_position + 1;
  }
  return page;
}

#undef DOCKET_EVENT_COLUMNS
#undef DOCKET_STREAM_COLUMNS

}  // namespace docket::sqlite::detail
