#include "providers/sqlite/sqlite_event_rows.h"

#include <sqlite3.h>

#include <array>
#include <optional>
#include <string>
#include <utility>

#include "core/in_place.h"
#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_connection.h"
#include "providers/sqlite/sqlite_transaction_access.h"

namespace docket::sqlite::detail {
namespace {

// What load reads: the stream is the caller's, so its terms are not selected again.
// read_all adds them (DOCKET_STREAM_COLUMNS, from column kStreamColumn on).
#define DOCKET_EVENT_COLUMNS                                                                \
  "global_position, version, event_id, event_type, payload, correlation_id, causation_id, " \
  "traceparent, tracestate, occurred_at"
#define DOCKET_STREAM_COLUMNS ", tenant, aggregate_type, aggregate_id"
constexpr std::size_t kStreamColumn = 10;
// Events a read makes room for before its first row.
constexpr std::size_t kFirstEvents = 16;

ParamView view_or_null(const std::string& text) {
  return text.empty() ? ParamView(nullptr) : ParamView(std::string_view(text));
}

std::int64_t integer_at(const Row& row, std::size_t column) {
  return std::get<std::int64_t>(row.at(column));
}

// A row selected with DOCKET_EVENT_COLUMNS, read in place (no Row in between): a load
// builds one event per row. `stream` is the stream the caller asked for (load), or
// null to build it from the DOCKET_STREAM_COLUMNS that follow (read_all). NULL
// lineage and trace columns read as empty, which is how append stores an absent value.
RecordedEvent recorded_event(const RowView& row, const StreamId* stream) {
  const std::int64_t position = row.int64(0);
  const std::string_view id_text = row.bytes(2);
  const std::optional<Uuid> event_id = Uuid::parse(id_text);
  if (!event_id) {
    throw InfrastructureError("SQLite event store: the event at global position " +
                              std::to_string(position) + " has event_id '" + std::string(id_text) +
                              "', which is not a UUID; the docket_events row was changed outside "
                              "docket");
  }
  RecordedEvent event{.stream = stream != nullptr ? *stream
                                                  : StreamId(TenantId(row.bytes(kStreamColumn)),
                                                             row.bytes(kStreamColumn + 1),
                                                             row.bytes(kStreamColumn + 2)),
                      .version = row.int64(1),
                      .global_position = position,
                      .event_id = *event_id,
                      .type = std::string(row.bytes(3)),
                      .payload = std::string(row.bytes(4)),
                      .metadata = {.correlation_id = std::string(row.bytes(5)),
                                   .causation_id = std::string(row.bytes(6)),
                                   .trace_context = {}},
                      .occurred_at = kit::from_micros(row.int64(9))};
  if (const std::string_view traceparent = row.bytes(7); !traceparent.empty()) {
    event.metadata.trace_context = parse_trace_context(traceparent, row.bytes(8));
  }
  return event;
}

// Runs `sql` and turns each row into an event (see recorded_event).
std::vector<RecordedEvent> recorded_events(Transaction& tx, std::string_view sql,
                                           std::span<const ParamView> params,
                                           const StreamId* stream) {
  std::vector<RecordedEvent> events;
  // SQLite does not tell the rows' count before they are read: room for a short
  // stream's events first, so that they are not moved through several small blocks.
  events.reserve(kFirstEvents);
  TransactionAccess::connection(tx).for_each_row(sql, params, [&](const RowView& row) {
    events.emplace_back(core::InPlace{[&] { return recorded_event(row, stream); }});
  });
  return events;
}

std::int64_t stream_version(Transaction& tx, const StreamId& stream) {
  const std::array<ParamView, 3> params{stream.tenant().value(), stream.aggregate_type(),
                                        stream.aggregate_id()};
  const auto rows = TransactionAccess::connection(tx).query_views(
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
        kit::to_micros(event.occurred_at)};
    std::vector<Row> inserted;
    try {
      inserted = TransactionAccess::connection(tx).query_views(
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
  return recorded_events(tx, sql, params, &stream);
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
  const std::array<ParamView, 3> params{
      from_position, static_cast<std::int64_t>(limit),
      tenant != nullptr ? ParamView(std::string_view(tenant->value())) : ParamView(nullptr)};
  ReadAllPage page{.events = tenant == nullptr
                                 ? recorded_events(tx, all_sql, std::span(params).first(2), nullptr)
                                 : recorded_events(tx, tenant_sql, params, nullptr),
                   .next_position = from_position};
  if (!page.events.empty()) {
    page.next_position = page.events.back().global_position + 1;
  }
  return page;
}

#undef DOCKET_EVENT_COLUMNS
#undef DOCKET_STREAM_COLUMNS

}  // namespace docket::sqlite::detail
