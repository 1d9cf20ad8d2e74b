#include "postgres_raw_outbox.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "postgres_raw_pg_params.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// The relay's default lease (RelaySettings::lease).
constexpr std::int64_t kOutboxLeaseMicros = 30'000'000;

// Verbatim the statements of src/providers/postgres/postgres_outbox_store.cc, with its macros.
#define DOCKET_TS(param) "('epoch'::timestamptz + " param " * interval '1 microsecond')"
#define DOCKET_US(column) "(extract(epoch FROM " column ") * 1000000)::int8"
constexpr const char* kInsertSql =
    "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, "
    "message_source, causation_id, correlation_id, traceparent, tracestate, created_at, "
    "attempts, next_attempt_at, status) SELECT $1, $2, $3, $4, " DOCKET_TS("$5") ", $6, $7, "
    "$8, $9, $10, " DOCKET_TS("$11") ", 0, " DOCKET_TS("$12") ", 0 FROM (SELECT "
    "pg_notify('docket_outbox_' || md5(current_schema()), '')) AS wake";
constexpr const char* kClaimSql =
    "UPDATE docket_outbox SET lease_token = $1, lease_until = " DOCKET_TS(
        "$2") " WHERE sequence IN (SELECT sequence FROM docket_outbox WHERE status = 0 "
              "AND next_attempt_at <= " DOCKET_TS("$3") " AND (lease_until IS NULL OR "
                                                        "lease_until <= " DOCKET_TS(
                                                            "$3") ") ORDER BY sequence LIMIT $4 "
                                                                  "FOR UPDATE SKIP LOCKED) "
                                                                  "RETURNING "
    "sequence, id, tenant, event_type, payload, " DOCKET_US("occurred_at") ", message_source, "
    "causation_id, correlation_id, traceparent, tracestate, " DOCKET_US("created_at") ", status, "
    "attempts, " DOCKET_US("next_attempt_at") ", last_error, " DOCKET_US("done_at");
constexpr const char* kCompleteSql =
    "UPDATE docket_outbox SET status = 1, done_at = " DOCKET_TS("$3")
    ", lease_token = NULL, lease_until = NULL WHERE id = ANY($1::text[]) AND "
    "lease_token = $2 AND status = 0";
#undef DOCKET_TS
#undef DOCKET_US

constexpr std::array<Oid, 12> kInsertTypes{kPgText, kPgText, kPgText, kPgBytea, kPgInt8, kPgText,
                                           kPgText, kPgText, kPgText, kPgText,  kPgInt8, kPgInt8};
constexpr std::array<Oid, 4> kClaimTypes{kPgText, kPgInt8, kPgInt8, kPgInt8};
constexpr std::array<Oid, 3> kCompleteTypes{kPgText, kPgText, kPgInt8};

constexpr const char* kBegin = "raw_ob_begin";
constexpr const char* kCommit = "raw_ob_commit";
constexpr const char* kInsert = "raw_ob_insert";
constexpr const char* kClaim = "raw_ob_claim";
constexpr const char* kComplete = "raw_ob_complete";

}  // namespace

RawOutboxPostgres::RawOutboxPostgres(const std::string& url, const std::string& source,
                                     const MessageIds& ids, PublishLog& log, std::size_t batch)
    : source_(source), ids_(ids), log_(log), batch_(batch), db_(url) {
  db_.prepare(kBegin, "BEGIN ISOLATION LEVEL READ COMMITTED", {});
  db_.prepare(kCommit, "COMMIT", {});
  db_.prepare(kInsert, kInsertSql, kInsertTypes);
  db_.prepare(kClaim, kClaimSql, kClaimTypes);
  db_.prepare(kComplete, kCompleteSql, kCompleteTypes);
}

void RawOutboxPostgres::insert(std::size_t message) {
  const PgInt8 now(now_micros());
  const RawPgParam null{nullptr, 0, kPgBinary};
  const std::array params{pg_text(ids_.id(message)),
                          pg_text(kOutboxTenant),
                          pg_text(kOutboxEventType),
                          pg_bytea(kOutboxPayload),
                          now.param(),
                          pg_text(source_),
                          null,
                          null,
                          pg_text(""),
                          pg_text(""),
                          now.param(),
                          now.param()};
  db_.run(kInsert, params);
}

void RawOutboxPostgres::stage(std::size_t message) {
  fill(message, 1);
}

void RawOutboxPostgres::fill(std::size_t first, std::size_t count) {
  if (count == 1) {
    insert(first);  // one statement commits on its own: no BEGIN, no COMMIT
    return;
  }
  db_.run(kBegin);
  try {
    for (std::size_t m = first; m < first + count; ++m) {
      insert(m);
    }
    db_.run(kCommit);
  } catch (...) {
    db_.rollback_and_rethrow();
  }
}

RelayTally RawOutboxPostgres::relay_pass() {
  char token[40];
  std::snprintf(token, sizeof token, "raw-%032llu", static_cast<unsigned long long>(++passes_));
  const std::int64_t now = now_micros();
  const PgInt8 lease_until(now + kOutboxLeaseMicros);
  const PgInt8 due(now);
  const PgInt8 limit(static_cast<std::int64_t>(batch_));
  const std::array claim{pg_text(token), lease_until.param(), due.param(), limit.param()};
  const RawPgResult r = db_.query(kClaim, claim);
  const auto rows = static_cast<std::size_t>(PQntuples(r.get()));
  if (claimed_.size() < rows) {
    claimed_.resize(rows);
  }
  for (std::size_t row = 0; row < rows; ++row) {
    const int i = static_cast<int>(row);
    claimed_[row].first = std::strtoll(PQgetvalue(r.get(), i, 0), nullptr, 10);
    claimed_[row].second.assign(PQgetvalue(r.get(), i, 1),
                                static_cast<std::size_t>(PQgetlength(r.get(), i, 1)));
    for (int c = 2; c < PQnfields(r.get()); ++c) {
      sink_ += static_cast<std::uint64_t>(PQgetlength(r.get(), i, c));
    }
  }
  // RETURNING gives no order; the relay publishes a batch in sequence order.
  std::sort(claimed_.begin(), claimed_.begin() + static_cast<std::ptrdiff_t>(rows));
  RelayTally tally{.passes = 1, .claimed = rows, .published = 0, .not_done = 0};
  if (rows == 0) {
    return tally;
  }
  // Published in sequence order, then marked done in one statement, the ids bound as
  // one text[] literal: {"id1","id2",...} (message ids hold no quote or backslash).
  done_ids_.assign("{");
  for (std::size_t row = 0; row < rows; ++row) {
    log_.record(claimed_[row].second);
    done_ids_.append(row == 0 ? "\"" : ",\"").append(claimed_[row].second).append("\"");
  }
  done_ids_.append("}");
  const PgInt8 done_at(now_micros());
  const std::array complete{pg_text(done_ids_), pg_text(token), done_at.param()};
  tally.published = static_cast<std::size_t>(db_.run(kComplete, complete));
  tally.not_done = rows - tally.published;
  return tally;
}

}  // namespace docket::bench
