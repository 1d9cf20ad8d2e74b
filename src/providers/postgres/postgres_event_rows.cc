#include "providers/postgres/postgres_event_rows.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "core/in_place.h"
#include "docket/core/error.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_binary_array.h"
#include "providers/postgres/postgres_error.h"
#include "providers/postgres/postgres_exec.h"

namespace docket::postgres::detail {
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

// The events' columns as arrays, one parameter each, for the append statement.
struct EventArrays {
  explicit EventArrays(const std::vector<RecordedEvent>& events)
      : ids(type_oid::kUuid, events.size(), 16),
        types(type_oid::kText, events.size(), 16),
        payloads(type_oid::kBytea, events.size(), payload_bytes(events)),
        correlation_ids(type_oid::kText, events.size()),
        causation_ids(type_oid::kText, events.size()),
        traceparents(type_oid::kText, events.size(), 55),
        tracestates(type_oid::kText, events.size()),
        occurred(type_oid::kInt8, events.size()) {
    std::string traceparent;
    for (const RecordedEvent& event : events) {
      ids.add_uuid(event.event_id);
      types.add_text(event.type);
      payloads.add_bytes(bytes_of(event.payload));
      correlation_ids.add_optional_text(text_or_null(event.metadata.correlation_id));
      causation_ids.add_optional_text(text_or_null(event.metadata.causation_id));
      if (const auto& trace = event.metadata.trace_context) {
        traceparent = trace->parent.to_string();
        traceparents.add_text(traceparent);
        tracestates.add_optional_text(text_or_null(trace->state));
      } else {
        traceparents.add_null();
        tracestates.add_null();
      }
      occurred.add_int64(kit::to_micros(event.occurred_at));
    }
  }

  static std::size_t payload_bytes(const std::vector<RecordedEvent>& events) {
    std::size_t total = 0;
    for (const RecordedEvent& event : events) {
      total += event.payload.size();
    }
    return events.empty() ? 0 : total / events.size();
  }

  BinaryArray ids, types, payloads, correlation_ids, causation_ids, traceparents, tracestates,
      occurred;
};

VersionConflict conflict(const StreamId& stream, ExpectedVersion expected, std::int64_t actual) {
  return VersionConflict{
      .subject = stream.describe(), .expected_version = expected.value(), .actual_version = actual};
}

// The append is one statement (schema version 3's protocol, eventsourcing_schema.cc),
// in two forms that share their first two parts:
//   cur    the stream's version, one backward index probe (never max(): see version 2);
//   ok     one row when the expected version ($5; -2: any, -1: no stream) matches, and
//          only then the announcement: the in-flight lock keyed by the sequence's last
//          value + 1. MATERIALIZED and volatile, so it is taken once and before any
//          position is drawn (the inserts draw theirs from the identity default while
//          reading ok's row, or first's).
#define DOCKET_APPEND_CHECK                                                                    \
  "WITH cur AS (SELECT coalesce((SELECT version FROM docket_events WHERE tenant = $2 "         \
  "AND aggregate_type = $3 AND aggregate_id = $4 ORDER BY version DESC LIMIT 1), -1) AS v), "  \
  "ok AS MATERIALIZED (SELECT v, pg_advisory_xact_lock_shared(($1::int8 << 40) | "             \
  "(coalesce(pg_sequence_last_value('docket_events_global_position_seq'::regclass), 0) + 1)) " \
  "AS announced FROM cur WHERE $5 = -2 OR v = $5)"
#define DOCKET_APPEND_INSERT                                                             \
  "INSERT INTO docket_events (tenant, aggregate_type, aggregate_id, version, event_id, " \
  "event_type, payload, correlation_id, causation_id, traceparent, tracestate, occurred_at) "
#define DOCKET_APPEND_UNNEST                                                            \
  "unnest($6, $7, $8, $9, $10, $11, $12, $13) WITH ORDINALITY AS e(id, type, payload, " \
  "correlation_id, causation_id, traceparent, tracestate, occurred_at, i)"
#define DOCKET_APPEND_EVENT_COLUMNS                                                          \
  "e.id, e.type, e.payload, e.correlation_id, e.causation_id, e.traceparent, e.tracestate, " \
  "e.occurred_at"

// On its own (an autocommit statement): every event in one INSERT, in version order.
// A concurrent appender that took a version first makes it fail with a unique
// violation, which ends only the append's own transaction, so the append is never
// partial. It returns one row per event (version, position) in version order, or no
// row when the expected version did not match. One table modification, not two: at
// one client the statement's executor set-up is a measurable part of an append.
constexpr std::string_view kOwnAppendSql = DOCKET_APPEND_CHECK
    " " DOCKET_APPEND_INSERT "SELECT $2, $3, $4, ok.v + e.i, " DOCKET_APPEND_EVENT_COLUMNS
    " FROM ok, " DOCKET_APPEND_UNNEST " ORDER BY e.i RETURNING version, global_position";

// On its own, to a new stream (expected no stream): kOwnAppendSql without reading the
// stream, whose version would be -1 or the append a conflict anyway. A stream that
// exists makes the insert of version 0 a violation of the stream key, the conflict.
constexpr std::string_view kOwnNewStreamAppendSql =
    "WITH ok AS MATERIALIZED (SELECT $5::int8 AS v, pg_advisory_xact_lock_shared(($1::int8 << "
    "40) | (coalesce(pg_sequence_last_value('docket_events_global_position_seq'::regclass), 0) "
    "+ 1)) AS announced) " DOCKET_APPEND_INSERT
    "SELECT $2, $3, $4, ok.v + e.i, " DOCKET_APPEND_EVENT_COLUMNS " FROM ok, " DOCKET_APPEND_UNNEST
    " ORDER BY e.i RETURNING version, global_position";

// Inside the caller's transaction, where a failed statement would abort it:
//   first  the first event, ON CONFLICT on the stream key DO NOTHING: no row when a
//          concurrent appender holds this version (the statement then waits for it to end, as a
//          unique violation would);
//   rest   the others, only once first is in. Whoever inserted version v + 1 of a
//          stream owns v + 2 ... too: every append inserts a contiguous run after the
//          version it read, and all of it or none (its first row decides), so no other
//          appender can hold a later version without holding v + 1. An append is
//          therefore never partial, with no subtransaction.
// It returns one row per event (version, position) in version order, or one row
// (cur's version, NULL) when nothing was inserted.
constexpr std::string_view kJoinedAppendSql = DOCKET_APPEND_CHECK
    ", first AS (" DOCKET_APPEND_INSERT
    "SELECT $2, $3, $4, ok.v + 1, $6[1], $7[1], $8[1], $9[1], $10[1], $11[1], $12[1], $13[1] "
    "FROM ok ON CONFLICT (tenant, aggregate_type, aggregate_id, version) DO NOTHING "
    "RETURNING version, global_position), "
    "rest AS (" DOCKET_APPEND_INSERT
    "SELECT $2, $3, $4, first.version + e.i - 1, " DOCKET_APPEND_EVENT_COLUMNS
    " FROM first, " DOCKET_APPEND_UNNEST
    " WHERE e.i > 1 ORDER BY e.i RETURNING version, global_position) "
    "SELECT version, global_position FROM first "
    "UNION ALL (SELECT version, global_position FROM rest ORDER BY version) "
    "UNION ALL SELECT v, NULL FROM cur WHERE NOT EXISTS (SELECT 1 FROM first)";

#undef DOCKET_APPEND_CHECK
#undef DOCKET_APPEND_INSERT
#undef DOCKET_APPEND_UNNEST
#undef DOCKET_APPEND_EVENT_COLUMNS

// The stream key's unique constraint (eventsourcing_schema.cc), by PostgreSQL's default
// name: the one unique violation that is another appender's version.
constexpr std::string_view kStreamKeyConstraint =
    "docket_events_tenant_aggregate_type_aggregate_id_version_key";

bool stream_key_taken(const Result& r) {
  return r.sqlstate() == sqlstate::kUniqueViolation && r.constraint_name() == kStreamKeyConstraint;
}

// A failed append. Its drawn position taken already (the primary key) is not a race
// that a retry could win: rows were written with explicit positions past the identity
// sequence, and every append would meet them until the sequence moves past.
[[noreturn]] void throw_append_failure(const Connection& conn, const Result& r,
                                       std::string_view statement) {
  if (r.sqlstate() == sqlstate::kUniqueViolation && r.constraint_name() == "docket_events_pkey") {
    throw PostgresError(
        std::string(sqlstate::kUniqueViolation),
        "PostgreSQL event store: the append drew a global position that an event already has "
        "(docket_events_pkey). Rows were written into docket_events with explicit "
        "global_position values beyond its identity sequence (an import?). Nothing was "
        "appended. Move the sequence past them: SELECT setval(pg_get_serial_sequence("
        "'docket_events', 'global_position'), (SELECT max(global_position) FROM "
        "docket_events));");
  }
  throw_failure(conn, r, statement);
}

// The stream's version now, for a conflict the append's own snapshot could not see.
std::int64_t stream_version(Connection& conn, const StreamId& stream) {
  return exec_prepared_binary(conn, "docket_events_version",
                              "SELECT coalesce((SELECT version FROM docket_events WHERE tenant = "
                              "$1 AND aggregate_type = $2 AND aggregate_id = $3 ORDER BY "
                              "version DESC LIMIT 1), -1)",
                              stream.tenant().value(), stream.aggregate_type(),
                              stream.aggregate_id())
      .int64(0, 0);
}

}  // namespace

AppendResult append_events(Connection& conn, std::int64_t tag, const StreamId& stream,
                           ExpectedVersion expected, const std::vector<RecordedEvent>& events,
                           Joining joining) {
  if (joining == Joining::kCallersTransaction && conn.idle()) {
    throw InfrastructureError("PostgreSQL event store: append to " + stream.describe() +
                              " needs an open transaction, and the connection has none (a "
                              "handler must not COMMIT or ROLLBACK itself); nothing was written");
  }
  const EventArrays arrays(events);
  const std::array params{to_param(tag),
                          to_param(stream.tenant().value()),
                          to_param(stream.aggregate_type()),
                          to_param(stream.aggregate_id()),
                          to_param(expected.value()),
                          arrays.ids.param(),
                          arrays.types.param(),
                          arrays.payloads.param(),
                          arrays.correlation_ids.param(),
                          arrays.causation_ids.param(),
                          arrays.traceparents.param(),
                          arrays.tracestates.param(),
                          arrays.occurred.param()};
  const bool own = joining == Joining::kOwnTransaction;
  // The statement: its prepared name and text.
  const auto [statement, sql] =
      !own ? std::pair(std::string_view("docket_events_append_joined"), kJoinedAppendSql)
      : expected.value() == ExpectedVersion::kNoStreamValue
          ? std::pair(std::string_view("docket_events_append_new"), kOwnNewStreamAppendSql)
          : std::pair(std::string_view("docket_events_append"), kOwnAppendSql);
  Result r = try_exec_prepared_binary(conn, statement, sql, params);
  if (!r.ok()) {
    // On its own, a violation of the stream key is a concurrent appender that took a
    // version first.
    // Under REPEATABLE READ or SERIALIZABLE (a session default; docket's own transactions
    // are READ COMMITTED), ON CONFLICT or the unique index reports a winner its snapshot
    // cannot see as a serialization failure. Either way the append wrote nothing and its
    // transaction ended: a conflict like any other. Inside the caller's transaction it is
    // the caller's error.
    if (own && (stream_key_taken(r) || r.sqlstate() == sqlstate::kSerializationFailure)) {
      return conflict(stream, expected, stream_version(conn, stream));
    }
    throw_append_failure(conn, r, statement);
  }
  if (r.rows() == 0 && own) {  // the expected version did not match
    return conflict(stream, expected, stream_version(conn, stream));
  }
  if (r.rows() == 1 && r.is_null(0, 1)) {
    const std::int64_t seen = r.int64(0, 0);
    // A stale expectation is decided by the version read. Otherwise a concurrent
    // appender took the version after this statement's snapshot: read it again.
    const bool lost_race =
        expected.value() == ExpectedVersion::kAnyValue || seen == expected.value();
    return conflict(stream, expected, lost_race ? stream_version(conn, stream) : seen);
  }
  if (r.rows() != static_cast<int>(events.size())) {
    throw InfrastructureError("PostgreSQL event store: the append returned " +
                              std::to_string(r.rows()) + " rows for an append of " +
                              std::to_string(events.size()) + " events to " + stream.describe() +
                              "; the docket_events table in this schema is not docket's");
  }
  AppendSuccess success{.new_version = r.int64(r.rows() - 1, 0), .events = {}};
  success.events.reserve(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    const int row = static_cast<int>(i);
    success.events.push_back(AppendedEvent{.version = r.int64(row, 0),
                                           .global_position = r.int64(row, 1),
                                           .event_id = events[i].event_id,
                                           .occurred_at = events[i].occurred_at});
  }
  return success;
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

}  // namespace docket::postgres::detail
