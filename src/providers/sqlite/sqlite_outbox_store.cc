// The SQLite OutboxStore: the docket_outbox table in the producer's database. Every
// relay operation is one transaction, which SQLite runs under its write lock: claims are
// serialised (one claimer at a time) and atomic. A claim's leases are runs of sequences
// in docket_outbox_leases (sqlite_outbox_leases.h), not columns of the rows. Order per key
// is the claim's condition: a row with a key is a candidate only when no row of its
// tenant and key with a lower sequence is pending or parked (docket_outbox_key_held
// answers that), so only a key's earliest open row can be leased, and not while its lease
// lasts. Leases are on the machine's clock (LeaseClock::kStore), the relays' times moved
// onto it.
#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <span>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/sqlite/store.h"
#include "docket/sqlite/transaction.h"
#include "providers/kit/outbox_status_code.h"
#include "providers/kit/time_codec.h"
#include "providers/sqlite/sqlite_database.h"
#include "providers/sqlite/sqlite_immediate_transaction.h"
#include "providers/sqlite/sqlite_options.h"
#include "providers/sqlite/sqlite_outbox_leases.h"
#include "providers/sqlite/sqlite_outbox_rows.h"
#include "providers/sqlite/sqlite_schema.h"
#include "providers/sqlite/sqlite_transaction_access.h"
#include "providers/sqlite/sqlite_unit_of_work.h"

namespace docket::sqlite {
namespace {

using detail::Database;
using detail::ParamView;

const std::string kColumns = detail::kOutboxColumns;

class SqliteOutboxStore final : public OutboxStore {
 public:
  SqliteOutboxStore(const StoreOptions& options, const Clock& clock)
      : database_(options, clock, detail::migrate_schema), path_(options.path) {}

  std::string_view provider_name() const noexcept override { return "sqlite"; }
  // Leases are on the machine's clock (claim() says how): LeaseClock::kStore.
  StoreCapabilities capabilities() const noexcept override {
    StoreCapabilities capabilities = database_.capabilities();
    capabilities.lease_clock = LeaseClock::kStore;
    return capabilities;
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<sqlite::Transaction>();
  }
  void migrate() override { database_.migrate(); }
  std::unique_ptr<UnitOfWork> begin() override {
    return std::make_unique<detail::SqliteUnitOfWork>(database_);
  }

  void insert(HandlerTransaction& tx, const OutboxRecord& record) override {
    auto* sqlite_tx = dynamic_cast<Transaction*>(&tx);
    if (sqlite_tx == nullptr) {
      throw ConfigurationError("SQLite outbox on '" + path_ + "': cannot stage through a " +
                               std::string(tx.type_name()) +
                               "; stage through the docket::sqlite::Transaction of a unit of work "
                               "on the same database");
    }
    if (!database_.holds(TransactionAccess::connection(*sqlite_tx))) {
      throw ConfigurationError("SQLite outbox on '" + path_ +
                               "': the transaction is on another database ('" +
                               TransactionAccess::connection(*sqlite_tx).path() +
                               "'); a message is atomic only with writes to its own outbox's "
                               "database: open the unit of work with this outbox store's begin()");
    }
    if (!TransactionAccess::connection(*sqlite_tx).in_transaction()) {
      throw InvalidInputError("SQLite outbox on '" + path_ +
                              "': no transaction is open on the connection, so the message would "
                              "commit alone; stage inside a unit of work (begin() ... commit())");
    }
    std::string encoded_headers;
    const auto params = detail::outbox_insert_params(record, encoded_headers);
    TransactionAccess::connection(*sqlite_tx)
        .exec_views(
            "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, "
            "message_source, causation_id, correlation_id, traceparent, tracestate, created_at, "
            "attempts, next_attempt_at, destination, ordering_key, headers, status) "
            "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, 0)",
            params);
    TransactionAccess::note_staged_outbox(*sqlite_tx);
  }

  std::shared_ptr<WakeSignal> staged_signal() override { return database_.outbox_staged(); }

  // The relay's times are moved onto the machine's clock (to_machine()): its lease is
  // as long as it asked, and is taken and compared on the clock every process sharing
  // the file reads, so a relay whose clock runs ahead cannot take over another's live
  // lease early (issue 37). One transaction under the write lock: the lease runs
  // (sqlite_outbox_leases.h) over, the candidates read, the claim's runs written.
  std::vector<OutboxRecord> claim(std::string_view token, Timestamp now, Timestamp lease_until,
                                  std::size_t limit) override {
    const std::chrono::microseconds shift = to_machine(now);
    auto connection = database_.connect();
    detail::ImmediateTransaction transaction(*connection);
    auto leased = detail::lease_due_rows(*connection, token, kit::to_micros(now + shift),
                                         kit::to_micros(lease_until + shift), limit);
    transaction.commit();
    return leased;
  }

  bool complete(std::string_view id, std::string_view token, Timestamp now) override {
    const std::string ids[] = {std::string(id)};
    return complete_all(ids, token, now) == 1;
  }

  // One commit for the whole batch (one WAL sync under synchronous=FULL), not one a
  // message, in statements of up to kCompleteChunk ids each, bound as views of `ids`;
  // then the token's runs that cover no pending row are released.
  std::size_t complete_all(std::span<const std::string> ids, std::string_view token,
                           Timestamp now) override {
    constexpr std::size_t kCompleteChunk = 500;  // bound ids a statement, far below SQLite's limit
    if (ids.empty()) {
      return 0;
    }
    const std::int64_t done_at = kit::to_micros(now + to_machine(now));
    auto connection = database_.connect();
    detail::ImmediateTransaction transaction(*connection);
    std::vector<ParamView> params;
    params.reserve(std::min(kCompleteChunk, ids.size()) + 2);
    std::size_t marked = 0;
    for (std::size_t first = 0; first < ids.size(); first += kCompleteChunk) {
      const std::size_t count = std::min(kCompleteChunk, ids.size() - first);
      std::string sql = "UPDATE docket_outbox SET status = 1, done_at = ?2 WHERE status = 0 AND " +
                        std::string(detail::kRowLeasedByToken) + " AND id IN (";
      params.assign({ParamView(token), ParamView(done_at)});
      for (std::size_t i = 0; i < count; ++i) {
        sql += (i == 0 ? "?" : ", ?") + std::to_string(i + 3);
        params.emplace_back(std::string_view(ids[first + i]));
      }
      sql += ")";
      marked += static_cast<std::size_t>(connection->exec_views(sql, params));
    }
    if (marked > 0) {
      detail::release_finished_runs(*connection, token);
    }
    transaction.commit();
    return marked;
  }

  // The next attempt's time is moved onto the machine's clock as claim()'s times are,
  // by the store's clock's offset from it (the relay's own, where they are one). The row
  // leaves its run, so that its retry is a candidate once due.
  bool fail(std::string_view id, std::string_view token, const FailedAttempt& attempt) override {
    const Timestamp next_attempt_at = attempt.next_attempt_at + to_machine(database_.clock().now());
    auto connection = database_.connect();
    detail::ImmediateTransaction transaction(*connection);
    std::optional<std::int64_t> sequence;
    const std::array<ParamView, 2> find{ParamView(token), ParamView(id)};
    connection->for_each_row(
        "SELECT sequence FROM docket_outbox WHERE id = ?2 AND status = 0 AND " +
            std::string(detail::kRowLeasedByToken),
        find, [&](const detail::RowView& row) { sequence = row.int64(0); });
    if (!sequence) {
      return false;
    }
    const std::array<ParamView, 4> update{ParamView(*sequence), ParamView(attempt.error),
                                          ParamView(std::int64_t{attempt.park ? 2 : 0}),
                                          ParamView(kit::to_micros(next_attempt_at))};
    connection->exec_views(
        "UPDATE docket_outbox SET attempts = attempts + 1, last_error = ?2, status = ?3, "
        "next_attempt_at = CASE WHEN ?3 = 2 THEN next_attempt_at ELSE ?4 END "
        "WHERE sequence = ?1",
        update);
    detail::cut_from_run(*connection, token, *sequence);
    detail::release_finished_runs(*connection, token);
    transaction.commit();
    return true;
  }

  std::vector<OutboxRecord> parked(std::int64_t after_sequence, std::size_t limit) override {
    return records(
        "SELECT " + kColumns +
            " FROM docket_outbox WHERE status = 2 AND sequence > ?1 ORDER BY sequence LIMIT ?2",
        {after_sequence, static_cast<std::int64_t>(limit)});
  }

  bool replay(std::string_view id, Timestamp now) override {
    return database_.connect()->exec(
               "UPDATE docket_outbox SET status = 0, attempts = 0, next_attempt_at = ?2 "
               "WHERE id = ?1 AND status = 2",
               {std::string(id), kit::to_micros(now)}) == 1;
  }

  bool skip(std::string_view id, Timestamp now) override {
    return database_.connect()->exec(
               "UPDATE docket_outbox SET status = 3, done_at = ?2 WHERE id = ?1 AND status = 2",
               {std::string(id), kit::to_micros(now)}) == 1;
  }

  bool cancel(std::string_view id, Timestamp now) override {
    return database_.connect()->exec(
               "UPDATE docket_outbox SET status = 4, done_at = ?2 WHERE id = ?1 AND status = 0 "
               "AND NOT " +
                   std::string(detail::kRowLeased),
               {std::string(id), kit::to_micros(now)}) == 1;
  }

  std::size_t purge_parked_batch(Timestamp cutoff, std::size_t limit) override {
    return static_cast<std::size_t>(database_.connect()->exec(
        "DELETE FROM docket_outbox WHERE sequence IN (SELECT sequence FROM docket_outbox "
        "WHERE status = 2 AND next_attempt_at < ?1 ORDER BY sequence LIMIT ?2)",
        {kit::to_micros(cutoff), static_cast<std::int64_t>(limit)}));
  }

  std::size_t purge_done_batch(Timestamp cutoff, std::size_t limit) override {
    return static_cast<std::size_t>(database_.connect()->exec(
        "DELETE FROM docket_outbox WHERE sequence IN (SELECT sequence FROM docket_outbox "
        "WHERE status = 1 AND done_at < ?1 ORDER BY done_at LIMIT ?2)",
        {kit::to_micros(cutoff), static_cast<std::int64_t>(limit)}));
  }

  std::vector<OutboxRecord> read_feed(std::int64_t after_sequence, std::size_t limit) override {
    return records(
        "SELECT " + kColumns + " FROM docket_outbox WHERE sequence > ?1 ORDER BY sequence LIMIT ?2",
        {after_sequence, static_cast<std::int64_t>(limit)});
  }

  std::vector<OutboxRecord> list(OutboxStatus status, std::int64_t after_sequence,
                                 std::size_t limit) override {
    return records(
        "SELECT " + kColumns +
            " FROM docket_outbox WHERE status = ?1 AND sequence > ?2 ORDER BY sequence LIMIT ?3",
        {kit::outbox_status_code(status), after_sequence, static_cast<std::int64_t>(limit)});
  }

  // One grouped query: a row per destination and class (outbox_stats.h).
  OutboxStats stats(Timestamp now) override {
    const auto rows = database_.connect()->query(
        "SELECT CASE WHEN destination IS NULL OR destination = '' THEN event_type ELSE "
        "destination END, status, attempts > 0, next_attempt_at > ?1, count(*), "
        "min(created_at) FROM docket_outbox GROUP BY 1, 2, 3, 4",
        {kit::to_micros(now)});
    OutboxStats stats;
    for (const Row& row : rows) {
      add_outbox_rows(
          stats, std::get<std::string>(row.at(0)),
          kit::outbox_status_of_code(std::get<std::int64_t>(row.at(1)), "SQLite outbox"),
          std::get<std::int64_t>(row.at(2)) != 0, std::get<std::int64_t>(row.at(3)) != 0,
          static_cast<std::uint64_t>(std::get<std::int64_t>(row.at(4))),
          kit::from_micros(std::get<std::int64_t>(row.at(5))));
    }
    return stats;
  }

  std::optional<OutboxRecord> find(std::string_view id) override {
    auto found = records("SELECT " + kColumns + " FROM docket_outbox WHERE id = ?1", {id});
    if (found.empty()) {
      return std::nullopt;
    }
    return std::move(found.front());
  }

 private:
  std::vector<OutboxRecord> records(const std::string& sql,
                                    std::initializer_list<ParamView> params) {
    return detail::query_outbox_records(*database_.connect(), sql, params);
  }

  // How far the machine's clock is from a relay's time `now` (read just before): what
  // moves the relay's times onto the machine's clock. Zero when the store's clock is
  // simulated, whose times every relay and store of a test follow as they are.
  std::chrono::microseconds to_machine(Timestamp now) const {
    if (database_.clock().simulated()) {
      return std::chrono::microseconds::zero();
    }
    return std::chrono::duration_cast<std::chrono::microseconds>(SystemClock::instance().now() -
                                                                 now);
  }

  Database database_;
  std::string path_;
};

}  // namespace

std::unique_ptr<OutboxStore> open_outbox_store(StoreOptions options, const Clock& clock) {
  return std::make_unique<SqliteOutboxStore>(
      detail::checked_options(std::move(options), "SQLite outbox store"), clock);
}

}  // namespace docket::sqlite
