#include "sql_services.h"

#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/inbox_store.h"
#include "docket/sqlite/transaction.h"
#include "docket/stores/open_store.h"
#if DOCKET_HAVE_POSTGRES
#include "docket/postgres/transaction.h"
#endif

namespace docket::examples {
namespace {

// The services' SQL in each database they run on. The dialects differ only in how
// parameters are numbered (?1 / $1) and how the invoices' key is generated.
struct Statements {
  std::string_view create_orders;
  std::string_view insert_order;
  std::string_view create_invoices;
  std::string_view insert_invoice;
  std::string_view placed_orders;    // the run's order ids
  std::string_view invoiced_orders;  // the order id of each of the run's invoices
};

constexpr Statements kSqliteSql{
    .create_orders =
        "CREATE TABLE IF NOT EXISTS orders (order_id TEXT PRIMARY KEY, "
        "amount_cents INTEGER NOT NULL)",
    .insert_order = "INSERT INTO orders (order_id, amount_cents) VALUES (?1, ?2)",
    .create_invoices =
        "CREATE TABLE IF NOT EXISTS invoices (invoice_id INTEGER PRIMARY KEY, "
        "order_id TEXT NOT NULL, amount_cents INTEGER NOT NULL)",
    .insert_invoice = "INSERT INTO invoices (order_id, amount_cents) VALUES (?1, ?2)",
    .placed_orders = "SELECT order_id FROM orders WHERE order_id LIKE ?1 || '-%'",
    .invoiced_orders = "SELECT order_id FROM invoices WHERE order_id LIKE ?1 || '-%'"};

#if DOCKET_HAVE_POSTGRES
constexpr Statements kPostgresSql{
    .create_orders =
        "CREATE TABLE IF NOT EXISTS orders (order_id TEXT PRIMARY KEY, "
        "amount_cents BIGINT NOT NULL)",
    .insert_order = "INSERT INTO orders (order_id, amount_cents) VALUES ($1, $2)",
    .create_invoices =
        "CREATE TABLE IF NOT EXISTS invoices (invoice_id BIGINT GENERATED ALWAYS "
        "AS IDENTITY PRIMARY KEY, order_id TEXT NOT NULL, amount_cents BIGINT "
        "NOT NULL)",
    .insert_invoice = "INSERT INTO invoices (order_id, amount_cents) VALUES ($1, $2)",
    .placed_orders = "SELECT order_id FROM orders WHERE order_id LIKE $1 || '-%'",
    .invoiced_orders = "SELECT order_id FROM invoices WHERE order_id LIKE $1 || '-%'"};
#endif

// Calls body(native transaction, its dialect's statements) with the store's own
// transaction wrapper, so that each statement is written once for both databases.
// Refuses any other store, naming those the demo runs on (`other_stores` among them).
template <class Body>
decltype(auto) with_sql(HandlerTransaction& tx, const std::string& other_stores, Body&& body) {
  if (auto* sqlite_tx = dynamic_cast<sqlite::Transaction*>(&tx)) {
    return body(*sqlite_tx, kSqliteSql);
  }
#if DOCKET_HAVE_POSTGRES
  if (auto* postgres_tx = dynamic_cast<postgres::Transaction*>(&tx)) {
    return body(*postgres_tx, kPostgresSql);
  }
#endif
  throw ConfigurationError(
      "demo: the order pipeline's services have SQL for SQLite and PostgreSQL, and "
      "services of their own for " +
      (other_stores.empty() ? std::string("no other store") : other_stores) +
      ", not for a store whose transaction is " + std::string(tx.type_name()) +
      "; pass a sqlite:, postgresql: or such a store URL");
}

class SqlServices final : public OrderServices {
 public:
  SqlServices(std::string_view url, std::string other_stores)
      : db_(open_inbox_store(url)), other_stores_(std::move(other_stores)) {}

  void create_tables() const override {
    std::lock_guard lock(mutex_);
    for (std::string_view Statements::*ddl :
         {&Statements::create_orders, &Statements::create_invoices}) {
      auto unit = db_->begin();
      with_sql(unit->handler_transaction(), other_stores_,
               [&](auto& tx, const Statements& sql) { tx.exec(sql.*ddl); });
      unit->commit();
    }
  }

  void write_order(HandlerTransaction& tx, const OrderPlaced& order) const override {
    with_sql(tx, other_stores_, [&](auto& native, const Statements& sql) {
      native.exec(sql.insert_order, {order.order_id, order.amount_cents});
    });
  }

  void write_invoice(HandlerTransaction& tx, const OrderPlaced& order) const override {
    with_sql(tx, other_stores_, [&](auto& native, const Statements& sql) {
      native.exec(sql.insert_invoice, {order.order_id, order.amount_cents});
    });
  }

  std::vector<std::string> placed_orders(std::string_view run) const override {
    return order_ids(&Statements::placed_orders, run);
  }

  std::vector<std::string> invoiced_orders(std::string_view run) const override {
    return order_ids(&Statements::invoiced_orders, run);
  }

 private:
  // The first column of `query`'s rows for `run`, in a unit of its own.
  std::vector<std::string> order_ids(std::string_view Statements::*query,
                                     std::string_view run) const {
    std::lock_guard lock(mutex_);
    auto unit = db_->begin();
    return with_sql(unit->handler_transaction(), other_stores_,
                    [&](auto& tx, const Statements& sql) {
                      std::vector<std::string> ids;
                      for (const auto& row : tx.query(sql.*query, {std::string(run)})) {
                        ids.push_back(std::get<std::string>(row.at(0)));
                      }
                      return ids;
                    });
  }

  std::unique_ptr<InboxStore> db_;  // set-up and counting, outside the services' units
  mutable std::mutex mutex_;
  std::string other_stores_;
};

}  // namespace

std::optional<std::int64_t> sql_row_count(InboxStore& store, std::string_view table) {
  auto unit = store.begin();
  const auto count = [&](auto& tx) {
    const auto rows = tx.query("SELECT count(*) FROM " + std::string(table));
    return std::get<std::int64_t>(rows.at(0).at(0));
  };
  std::optional<std::int64_t> rows;
  if (auto* sqlite_tx = dynamic_cast<sqlite::Transaction*>(&unit->handler_transaction())) {
    rows = count(*sqlite_tx);
  }
#if DOCKET_HAVE_POSTGRES
  if (auto* postgres_tx = dynamic_cast<postgres::Transaction*>(&unit->handler_transaction())) {
    rows = count(*postgres_tx);
  }
#endif
  unit->commit();
  return rows;
}

std::unique_ptr<OrderServices> open_sql_services(std::string_view url, std::string other_stores) {
  return std::make_unique<SqlServices>(url, std::move(other_stores));
}

}  // namespace docket::examples
