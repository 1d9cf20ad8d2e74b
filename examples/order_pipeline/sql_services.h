// The order services on a SQL database, written once in portable SQL
// (docket/core/sql_transaction.h) for every provider whose transactions speak it: an
// orders table and an invoices table with a generated key (no unique constraint on
// order_id). A provider with SQL opens them in its own demo part
// (src/providers/<name>/demo/, a DemoProvider as order_services.h describes) with its
// tables' definitions, so that no line here names it, and no line casts a transaction.
//
// Thread-safety: as OrderServices; the store the services open for set-up and reads is
// used by one call at a time.
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_SQL_SERVICES_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_SQL_SERVICES_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "docket/core/sql_transaction.h"
#include "docket/inbox/inbox_store.h"
#include "docket/stores/open_store.h"
#include "order_services.h"

namespace docket::examples {

// What differs between the SQL databases: only the tables' definitions (integer types,
// how the invoices' key is generated). The statements below are portable SQL
// (docket/core/sql_transaction.h: $1 placeholders, parameters bound alike).
struct SqlDialect {
  std::string_view create_orders;    // order_id TEXT PRIMARY KEY, amount_cents
  std::string_view create_invoices;  // a generated key of its own, no constraint on order_id
};

// The services on the store `url`, whose transactions speak portable SQL.
class SqlServices final : public OrderServices {
 public:
  SqlServices(std::string_view url, const SqlDialect& dialect)
      : db_(open_inbox_store(url)), dialect_(dialect) {}

  void create_tables() const override {
    std::lock_guard lock(mutex_);
    for (const std::string_view ddl : {dialect_.create_orders, dialect_.create_invoices}) {
      auto unit = db_->begin();
      unit->transaction<SqlTransaction>().execute(ddl);
      unit->commit();
    }
  }

  void write_order(HandlerTransaction& tx, const OrderPlaced& order) const override {
    sql(tx).execute("INSERT INTO orders (order_id, amount_cents) VALUES ($1, $2)",
                    {order.order_id, order.amount_cents});
  }

  void write_invoice(HandlerTransaction& tx, const OrderPlaced& order) const override {
    sql(tx).execute("INSERT INTO invoices (order_id, amount_cents) VALUES ($1, $2)",
                    {order.order_id, order.amount_cents});
  }

  std::vector<std::string> placed_orders(std::string_view run) const override {
    return order_ids("SELECT order_id FROM orders WHERE order_id LIKE $1 || '-%'", run);
  }

  std::vector<std::string> invoiced_orders(std::string_view run) const override {
    return order_ids("SELECT order_id FROM invoices WHERE order_id LIKE $1 || '-%'", run);
  }

 private:
  static SqlTransaction& sql(HandlerTransaction& tx) {
    return transaction_as<SqlTransaction>(tx, "the demo's order services", "store's");
  }

  // The first column of `query`'s rows for `run`, in a unit of its own (a read: it is
  // rolled back).
  std::vector<std::string> order_ids(std::string_view query, std::string_view run) const {
    std::lock_guard lock(mutex_);
    auto unit = db_->begin();
    std::vector<std::string> ids;
    for (const SqlRow& row : unit->transaction<SqlTransaction>().fetch(query, {run})) {
      ids.push_back(std::get<std::string>(row.at(0)));
    }
    return ids;
  }

  std::unique_ptr<InboxStore> db_;  // set-up and reads, outside the services' units
  mutable std::mutex mutex_;
  SqlDialect dialect_;
};

// The rows of `table` (one of docket's own, e.g. docket_outbox) on `store`, read
// through a unit of work of its own.
inline std::int64_t sql_row_count(InboxStore& store, std::string_view table) {
  auto unit = store.begin();
  const auto rows =
      unit->transaction<SqlTransaction>().fetch("SELECT count(*) FROM " + std::string(table));
  unit->commit();
  return std::get<std::int64_t>(rows.at(0).at(0));
}

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_SQL_SERVICES_H_
