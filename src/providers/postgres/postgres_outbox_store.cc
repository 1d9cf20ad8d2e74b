// The PostgreSQL OutboxStore: the docket_outbox table in the producer's database.
// Staging joins the producer's transaction; every relay operation is one autocommit
// statement. Claims lock their rows FOR UPDATE SKIP LOCKED, so concurrent relays take
// disjoint batches without waiting for each other. Order per key is the claim's
// condition: a row with a key is a candidate only when no row of its tenant and key with
// a lower sequence is pending or parked in the statement's snapshot (a row leaves those
// states only by a committed complete or skip, so a snapshot can only hold a key longer,
// never release it early); the key's earliest open row is leased under its row lock,
// whose recheck sees another relay's lease. So at most one row per key is leased.
// Leases are on the server's clock (LeaseClock::kStore; claim() says how).
#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "docket/core/error.h"
#include "docket/postgres/store.h"
#include "docket/postgres/transaction.h"
#include "providers/kit/outbox_row.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"
#include "providers/postgres/postgres_capabilities.h"
#include "providers/postgres/postgres_database.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/postgres_listener.h"
#include "providers/postgres/postgres_outbox_schema.h"
#include "providers/postgres/postgres_text_array.h"
#include "providers/postgres/postgres_timestamp_sql.h"
#include "providers/postgres/postgres_transaction_access.h"
#include "providers/postgres/postgres_unique_violation.h"
#include "providers/postgres/postgres_unit_of_work.h"

namespace docket::postgres::detail {
namespace {

constexpr std::string_view kColumns =
    "sequence, id, tenant, event_type, payload, " DOCKET_US("occurred_at") ", message_source, "
    "causation_id, correlation_id, traceparent, tracestate, " DOCKET_US("created_at") ", status, "
    "attempts, " DOCKET_US("next_attempt_at") ", last_error, " DOCKET_US("done_at") ", "
    "destination, ordering_key, headers";

// claim(): $1 token, $2 the lease's length (microseconds), $3 the relay's now (whether
// a row is due), $4 limit, $5 the lease clock's now (NULL: the server's clock, read once
// in the CTE `clock`); followed by kColumns.
// clang-format off
constexpr std::string_view kClaimSql =
    "WITH clock AS (SELECT COALESCE(" DOCKET_TS("$5") ", clock_timestamp()) AS ts) "
    "UPDATE docket_outbox SET lease_token = $1, "
      "lease_until = (SELECT ts FROM clock) + $2 * interval '1 microsecond' "
    "WHERE sequence IN ("
      "SELECT sequence FROM docket_outbox AS o "
      "WHERE status = 0 AND next_attempt_at <= " DOCKET_TS("$3") " "
        "AND (lease_until IS NULL OR lease_until <= (SELECT ts FROM clock)) "
        "AND (ordering_key IS NULL OR NOT EXISTS ("
          "SELECT 1 FROM docket_outbox AS e WHERE e.tenant = o.tenant "
          "AND e.ordering_key = o.ordering_key AND e.sequence < o.sequence "
          "AND e.ordering_key IS NOT NULL AND e.status IN (0, 2))) "
      "ORDER BY sequence LIMIT $4 FOR UPDATE SKIP LOCKED) "
    "RETURNING ";
// clang-format on

std::optional<std::string> optional_string(std::optional<std::string_view> text) {
  return text ? std::optional<std::string>(*text) : std::nullopt;
}

// Rows selected as kColumns, in sequence order (RETURNING gives none: sorted here).
std::vector<OutboxRecord> records(const Result& result) {
  std::vector<OutboxRecord> out;
  out.reserve(static_cast<std::size_t>(result.rows()));
  for (int row = 0; row < result.rows(); ++row) {
    OutboxRecord r;
    r.sequence = result.int64(row, 0);
    r.id = result.text(row, 1);
    r.tenant = result.text(row, 2);
    r.event_type = result.text(row, 3);
    const auto payload = result.bytea(row, 4);
    r.payload.assign(reinterpret_cast<const char*>(payload.data()), payload.size());
    r.occurred_at = kit::from_micros(result.int64(row, 5));
    r.source = optional_string(result.optional_text(row, 6));
    r.causation_id = optional_string(result.optional_text(row, 7));
    r.correlation_id = optional_string(result.optional_text(row, 8));
    r.traceparent = result.text(row, 9);
    r.tracestate = result.text(row, 10);
    r.created_at = kit::from_micros(result.int64(row, 11));
    r.status = kit::outbox_status_of_code(result.int64(row, 12), "PostgreSQL outbox");
    r.attempts = static_cast<int>(result.int64(row, 13));
    r.next_attempt_at = kit::from_micros(result.int64(row, 14));
    r.last_error = optional_string(result.optional_text(row, 15));
    if (const auto done = result.optional_int64(row, 16)) {
      r.done_at = kit::from_micros(*done);
    }
    r.destination = result.text(row, 17);
    r.ordering_key = optional_string(result.optional_text(row, 18));
    r.headers = kit::decode_headers(result.optional_text(row, 19).value_or(""));
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.sequence < b.sequence; });
  return out;
}

// The channel a commit that staged messages notifies, and relays listen on, as an SQL
// expression: one per schema (the first of the connection's search_path), so that the
// outboxes of other schemas of the database (other services, benchmark runs) wake no
// relay of this one; hashed, since a channel name is at most 63 bytes.
constexpr std::string_view kStagedChannel = "'docket_outbox_' || md5(current_schema())";

std::span<const std::byte> bytes_of(const std::string& text) {
  return std::as_bytes(std::span(text.data(), text.size()));
}

class PostgresOutboxStore final : public OutboxStore {
 public:
  PostgresOutboxStore(const StoreOptions& options, const Clock& clock)
      : database_(options, clock, {outbox_schema()}), conninfo_(options.conninfo) {}

  std::string_view provider_name() const noexcept override { return "postgres"; }
  // Leases are on the server's clock (claim() says how): LeaseClock::kStore.
  StoreCapabilities capabilities() const noexcept override {
    StoreCapabilities capabilities = kPostgresCapabilities;
    capabilities.lease_clock = LeaseClock::kStore;
    return capabilities;
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<postgres::Transaction>();
  }
  void migrate() override { database_.migrate(); }
  std::unique_ptr<UnitOfWork> begin() override {
    return std::make_unique<PostgresUnitOfWork>(database_);
  }

  std::shared_ptr<WakeSignal> staged_signal() override {
    const std::lock_guard lock(listener_mutex_);
    if (!listener_)
      listener_ = shared_listener(conninfo_, kStagedChannel);
    return listener_->signal();
  }

  void insert(HandlerTransaction& tx, const OutboxRecord& record) override {
    auto* pg_tx = dynamic_cast<Transaction*>(&tx);
    if (pg_tx == nullptr) {
      throw ConfigurationError("PostgreSQL outbox: cannot stage through a " +
                               std::string(tx.type_name()) +
                               "; stage through the docket::postgres::Transaction of a unit of "
                               "work on the same database");
    }
    Connection& conn = TransactionAccess::connection(*pg_tx);
    if (!database_.holds(conn)) {
      throw ConfigurationError(
          "PostgreSQL outbox: the transaction is on " + conn.description() +
          " with other tables than this outbox's (another database, user or search_path); a "
          "message is atomic only with writes to its own outbox's database: open the unit of "
          "work with this outbox store's begin()");
    }
    if (!conn.in_transaction()) {
      throw InvalidInputError(
          "PostgreSQL outbox on " + conn.description() +
          ": no transaction is open on the connection, so the message would commit alone; "
          "stage inside a unit of work (begin() ... commit())");
    }
    const std::optional<std::string> headers =
        record.headers.empty() ? std::nullopt
                               : std::optional<std::string>(kit::encode_headers(record.headers));
    // The insert travels with the transaction's next statement or its COMMIT
    // (connection.h's deferred statements): staging adds no round trip of its own. It
    // notifies the schema's kStagedChannel in the same statement: PostgreSQL delivers a
    // notification at commit and never before (nor after a rollback), one per transaction however
    // many messages it staged, to every listening relay (staged_signal()).
    const std::array params{to_param(record.id),
                            to_param(record.tenant),
                            to_param(record.event_type),
                            to_param(bytes_of(record.payload)),
                            to_param(kit::to_micros(record.occurred_at)),
                            to_param(record.source),
                            to_param(record.causation_id),
                            to_param(record.correlation_id),
                            to_param(record.traceparent),
                            to_param(record.tracestate),
                            to_param(kit::to_micros(record.created_at)),
                            to_param(kit::to_micros(record.next_attempt_at)),
                            to_param(record.destination),
                            to_param(record.ordering_key),
                            to_param(headers)};
    static const std::string insert =
        "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, "
        "message_source, causation_id, correlation_id, traceparent, tracestate, created_at, "
        "attempts, next_attempt_at, destination, ordering_key, headers, status) SELECT $1, $2, "
        "$3, $4, " DOCKET_TS("$5") ", $6, $7, $8, $9, $10, " DOCKET_TS("$11") ", 0, " DOCKET_TS(
            "$12") ", $13, $14, $15, 0 FROM (SELECT pg_notify(" +
        std::string(kStagedChannel) + ", '')) AS wake";
    conn.defer_write(insert, "docket_outbox_insert_notify", params);
  }

  // The lease is taken and compared on the server's clock unless the store's clock is
  // simulated (a test moving time by hand): $5, the lease clock's time, is bound NULL and
  // the statement reads clock_timestamp() once (a volatile CTE is evaluated once). So a
  // relay whose clock runs ahead cannot take over another relay's live lease early, and
  // the lease is as long as it asked (lease_until - now) whatever its clock says (issue
  // 37). Whether a row is due is still read on the relay's clock (`now`, $3): the
  // producer and the relay's own failures wrote next_attempt_at on theirs.
  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    const std::optional<std::int64_t> lease_now =
        database_.clock().simulated() ? std::optional(kit::to_micros(now)) : std::nullopt;
    auto lease = database_.connect();
    return records(
        exec_prepared(*lease, "docket_outbox_claim", std::string(kClaimSql) + std::string(kColumns),
                      token, (lease_until - now).count(), kit::to_micros(now), limit, lease_now));
  }

  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    auto lease = database_.connect();
    return exec_prepared(*lease, "docket_outbox_complete",
                         "UPDATE docket_outbox SET status = 1, done_at = " DOCKET_TS("$3")
                         ", lease_token = NULL, lease_until = NULL WHERE id = $1 AND "
                         "lease_token = $2 AND status = 0",
                         id, token, kit::to_micros(now))
               .affected_rows() == 1;
  }

  // One statement for the relay's whole batch, the ids bound as one text[] literal.
  std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                           Timestamp now) override {
    auto lease = database_.connect();
    return static_cast<std::size_t>(
        exec_prepared(
            *lease, "docket_outbox_complete_all",
            "UPDATE docket_outbox SET status = 1, done_at = " DOCKET_TS(
                "$3") ", lease_token = NULL, lease_until = NULL WHERE id = ANY($1::text[]) AND "
                      "lease_token = $2 AND status = 0",
            text_array_literal(ids), token, kit::to_micros(now))
            .affected_rows());
  }

  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    auto lease = database_.connect();
    return exec_prepared(*lease, "docket_outbox_fail",
                         "UPDATE docket_outbox SET attempts = attempts + 1, last_error = $3, "
                         "status = CASE WHEN $4 THEN 2 ELSE 0 END, next_attempt_at = CASE WHEN $4 "
                         "THEN next_attempt_at ELSE " DOCKET_TS("$5") " END, lease_token = NULL, "
                         "lease_until = NULL WHERE id = $1 AND lease_token = $2 AND status = 0",
                         id, token, attempt.error, attempt.park, kit::to_micros(attempt.next_attempt_at))
               .affected_rows() == 1;
  }

  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    auto lease = database_.connect();
    return records(exec_prepared(*lease, "docket_outbox_parked",
                                 "SELECT " + std::string(kColumns) +
                                     " FROM docket_outbox WHERE status = 2 AND sequence > $1 "
                                     "ORDER BY sequence LIMIT $2",
                                 after_sequence, limit));
  }

  bool replay(std::string_view id, Timestamp now) override {
    auto lease = database_.connect();
    return exec_prepared(*lease, "docket_outbox_replay",
                         "UPDATE docket_outbox SET status = 0, attempts = 0, next_attempt_at = " DOCKET_TS(
                             "$2") ", lease_token = NULL, lease_until = NULL WHERE id = $1 AND "
                                   "status = 2",
                         id, kit::to_micros(now))
               .affected_rows() == 1;
  }

  bool skip(std::string_view id, Timestamp now) override {
    auto lease = database_.connect();
    return exec_prepared(*lease, "docket_outbox_skip",
                         "UPDATE docket_outbox SET status = 3, done_at = " DOCKET_TS(
                             "$2") ", lease_token = NULL, lease_until = NULL WHERE id = $1 AND "
                                   "status = 2",
                         id, kit::to_micros(now))
               .affected_rows() == 1;
  }

  bool cancel(std::string_view id, Timestamp now) override {
    auto lease = database_.connect();
    return exec_prepared(*lease, "docket_outbox_cancel",
                         "UPDATE docket_outbox SET status = 4, done_at = " DOCKET_TS(
                             "$2") " WHERE id = $1 AND status = 0 AND lease_token IS NULL",
                         id, kit::to_micros(now))
               .affected_rows() == 1;
  }

  std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) override {
    auto lease = database_.connect();
    return static_cast<std::size_t>(
        exec_prepared(*lease, "docket_outbox_purge_parked",
                      "DELETE FROM docket_outbox WHERE ctid IN (SELECT ctid FROM docket_outbox "
                      "WHERE status = 2 AND next_attempt_at < " DOCKET_TS("$1") " LIMIT $2)",
                      kit::to_micros(cutoff), limit)
            .affected_rows());
  }

  // One autocommit statement per batch; ctid picks the rows without a second index scan.
  std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) override {
    auto lease = database_.connect();
    return static_cast<std::size_t>(
        exec_prepared(*lease, "docket_outbox_purge",
                      "DELETE FROM docket_outbox WHERE ctid IN (SELECT ctid FROM docket_outbox "
                      "WHERE status = 1 AND done_at < " DOCKET_TS("$1") " LIMIT $2)",
                      kit::to_micros(cutoff), limit)
            .affected_rows());
  }

  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    auto lease = database_.connect();
    return records(
        exec_prepared(*lease, "docket_outbox_feed",
                      "SELECT " + std::string(kColumns) +
                          " FROM docket_outbox WHERE sequence > $1 ORDER BY sequence LIMIT $2",
                      after_sequence, limit));
  }

  std::vector<OutboxRecord> list(OutboxStatus status, std::int64_t after_sequence,
                                 std::size_t limit) override {
    auto lease = database_.connect();
    return records(exec_prepared(*lease, "docket_outbox_list",
                                 "SELECT " + std::string(kColumns) +
                                     " FROM docket_outbox WHERE status = $1 AND sequence > $2 "
                                     "ORDER BY sequence LIMIT $3",
                                 kit::outbox_status_code(status), after_sequence, limit));
  }

  // One grouped query: a row per destination and class (outbox_stats.h).
  OutboxStats stats(Timestamp now) override {
    auto lease = database_.connect();
    const Result result = exec_prepared(
        *lease, "docket_outbox_stats",
        "SELECT CASE WHEN destination IS NULL OR destination = '' THEN event_type ELSE "
        "destination END, status::int8, attempts > 0, next_attempt_at > " DOCKET_TS(
            "$1") ", count(*), " DOCKET_US("min(created_at)") " FROM docket_outbox GROUP BY 1, 2, "
                                                           "3, 4",
        kit::to_micros(now));
    OutboxStats stats;
    for (int row = 0; row < result.rows(); ++row) {
      add_outbox_rows(stats, std::string(result.text(row, 0)),
                      kit::outbox_status_of_code(result.int64(row, 1), "PostgreSQL outbox"),
                      result.boolean(row, 2), result.boolean(row, 3),
                      static_cast<std::uint64_t>(result.int64(row, 4)),
                      kit::from_micros(result.int64(row, 5)));
    }
    return stats;
  }

  std::optional<OutboxRecord> find(std::string_view id) override {
    auto lease = database_.connect();
    auto found = records(
        exec_prepared(*lease, "docket_outbox_find",
                      "SELECT " + std::string(kColumns) + " FROM docket_outbox WHERE id = $1", id));
    if (found.empty()) {
      return std::nullopt;
    }
    return std::move(found.front());
  }

 private:
  Database database_;
  const std::string conninfo_;
  std::mutex listener_mutex_;
  std::shared_ptr<kit::NotificationListener> listener_;  // opened by the first staged_signal()
};

}  // namespace

}  // namespace docket::postgres::detail

namespace docket::postgres {

std::unique_ptr<OutboxStore> open_outbox_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<detail::PostgresOutboxStore>(options, clock);
}

}  // namespace docket::postgres
