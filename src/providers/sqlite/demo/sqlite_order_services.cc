// The order pipeline's services on SQLite (examples/order_pipeline/order_services.h):
// the portable SQL services (sql_services.h) on SQLite's tables, written through the
// unit's transaction as docket::SqlTransaction, so that each write commits with the
// outbox message or the inbox's dedup record in the unit's one BEGIN IMMEDIATE
// transaction.
//   orders    order_id TEXT PRIMARY KEY, amount_cents INTEGER
//   invoices  invoice_id INTEGER PRIMARY KEY (the rowid), order_id, amount_cents
#include <memory>
#include <string_view>

#include "order_services.h"
#include "sql_services.h"

namespace docket::sqlite {
namespace {

constexpr examples::SqlDialect kDialect{
    .create_orders =
        "CREATE TABLE IF NOT EXISTS orders (order_id TEXT PRIMARY KEY, "
        "amount_cents INTEGER NOT NULL)",
    .create_invoices =
        "CREATE TABLE IF NOT EXISTS invoices (invoice_id INTEGER PRIMARY KEY, "
        "order_id TEXT NOT NULL, amount_cents INTEGER NOT NULL)"};

std::unique_ptr<examples::OrderServices> open_services(std::string_view url) {
  return std::make_unique<examples::SqlServices>(url, kDialect);
}

}  // namespace

const examples::DemoProvider& demo_services() {
  static const examples::DemoProvider provider{.example_url = "sqlite:///tmp/demo.db",
                                               .open = &open_services,
                                               .table_rows = &examples::sql_row_count};
  return provider;
}

}  // namespace docket::sqlite
