// A projection's read model for the event feed consumer tests, on each provider of
// JoinDatabases: table "balances_read" with one row per applied event, keyed by
// (tenant, account, version), written in the inbox's unit of work. Applying one event
// twice would fail the handler on that key (its own unique violation), so a double
// application can never pass unnoticed.
#ifndef DOCKET_TESTS_PROJECTIONS_READ_MODEL_H_
#define DOCKET_TESTS_PROJECTIONS_READ_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "conformance/eventsourcing/join_databases.h"

namespace docket::projection_tests {

// One read-model row: which event of which account was applied.
struct Applied {
  std::string tenant;
  std::string account;
  std::int64_t version = 0;
};

template <class Database>
struct ReadModel;

template <>
struct ReadModel<conformance::eventsourcing::MemoryDatabase> {
  using Tx = memory::Transaction;
  static void create(InboxStore&) {}
  static void apply(Tx& tx, const Applied& row) {
    tx.insert("balances_read", {row.tenant, row.account, std::to_string(row.version)});
  }
  static std::size_t count(InboxStore& store) {
    auto unit = store.begin();  // an empty unit of work sees the committed rows
    return dynamic_cast<Tx&>(unit->handler_transaction()).count("balances_read");
  }
  static bool has(InboxStore& store, const Applied& row) {
    auto unit = store.begin();
    return dynamic_cast<Tx&>(unit->handler_transaction())
        .find("balances_read", {row.tenant, row.account, std::to_string(row.version)})
        .has_value();
  }
};

// SQLite and PostgreSQL: the same table and statements but for their placeholders.
template <class Transaction, class Value, const char* kInsert, const char* kHas>
struct SqlReadModel {
  using Tx = Transaction;
  static void create(InboxStore& store) {
    auto unit = store.begin();
    native(*unit).exec(
        "CREATE TABLE balances_read (tenant TEXT NOT NULL, account TEXT NOT NULL, "
        "version BIGINT NOT NULL, PRIMARY KEY (tenant, account, version))",
        std::vector<Value>{});
    unit->commit();
  }
  static void apply(Tx& tx, const Applied& row) {
    tx.exec(kInsert, std::vector<Value>{row.tenant, row.account, row.version});
  }
  static std::size_t count(InboxStore& store) {
    auto unit = store.begin();
    const auto rows =
        native(*unit).query("SELECT count(*) FROM balances_read", std::vector<Value>{});
    return static_cast<std::size_t>(std::get<std::int64_t>(rows.at(0).at(0)));
  }
  static bool has(InboxStore& store, const Applied& row) {
    auto unit = store.begin();
    const auto rows =
        native(*unit).query(kHas, std::vector<Value>{row.tenant, row.account, row.version});
    return std::get<std::int64_t>(rows.at(0).at(0)) == 1;
  }
  static Tx& native(UnitOfWork& unit) { return dynamic_cast<Tx&>(unit.handler_transaction()); }
};

#ifdef DOCKET_HAVE_SQLITE
inline constexpr char kSqliteInsert[] =
    "INSERT INTO balances_read (tenant, account, version) VALUES (?1, ?2, ?3)";
inline constexpr char kSqliteHas[] =
    "SELECT count(*) FROM balances_read WHERE tenant = ?1 AND account = ?2 AND version = ?3";
template <>
struct ReadModel<conformance::eventsourcing::SqliteDatabase>
    : SqlReadModel<sqlite::Transaction, sqlite::Value, kSqliteInsert, kSqliteHas> {};
#endif

#ifdef DOCKET_HAVE_POSTGRES
inline constexpr char kPostgresInsert[] =
    "INSERT INTO balances_read (tenant, account, version) VALUES ($1, $2, $3)";
inline constexpr char kPostgresHas[] =
    "SELECT count(*) FROM balances_read WHERE tenant = $1 AND account = $2 AND version = $3";
template <>
struct ReadModel<conformance::eventsourcing::PostgresDatabase>
    : SqlReadModel<postgres::Transaction, postgres::Value, kPostgresInsert, kPostgresHas> {};
#endif

}  // namespace docket::projection_tests

#endif  // DOCKET_TESTS_PROJECTIONS_READ_MODEL_H_
