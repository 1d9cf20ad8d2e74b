// The order pipeline's services on SQLite (examples/order_pipeline/order_services.h):
// the SQL services (sql_services.h) in SQLite's dialect, written through
// docket::sqlite::Transaction, so that each write commits with the outbox message or
// the inbox's dedup record in the unit's one BEGIN IMMEDIATE transaction.
//   orders    order_id TEXT PRIMARY KEY, amount_cents INTEGER
//   invoices  invoice_id INTEGER PRIMARY KEY (the rowid), order_id, amount_cents
#include <memory>
#include <string_view>

#include "docket/sqlite/transaction.h"
#include "order_services.h"
#include "sql_services.h"

namespace docket::sqlite {
namespace {

constexpr examples::SqlStatements kStatements{
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

std::unique_ptr<examples::OrderServices> open_services(std::string_view url) {
  return std::make_unique<examples::SqlServices<Transaction>>(url, kStatements);
}

}  // namespace

const examples::DemoProvider& demo_services() {
  static const examples::DemoProvider provider{.example_url = "sqlite:///tmp/demo.db",
                                               .open = &open_services,
                                               .table_rows = &examples::sql_row_count<Transaction>};
  return provider;
}

}  // namespace docket::sqlite
