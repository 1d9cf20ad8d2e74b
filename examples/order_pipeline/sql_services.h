// The order services on a SQL database, written once for every provider whose public
// transaction wrapper runs SQL (exec and query with positional parameters, rows of
// variants): an orders table and an invoices table with a generated key (no unique
// constraint on order_id). A provider with SQL instantiates them in its own demo part
// (src/providers/<name>/demo/, a DemoProvider as order_services.h describes) with its
// transaction type and its dialect's statements, so that no line here names it.
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

#include "docket/inbox/inbox_store.h"
#include "docket/stores/open_store.h"
#include "order_services.h"

namespace docket::examples {

// The services' SQL in one database's dialect. The dialects differ only in how
// parameters are numbered (?1 / $1), in integer types and in how the invoices' key is
// generated.
struct SqlStatements {
  std::string_view create_orders;
  std::string_view insert_order;     // (order_id, amount_cents)
  std::string_view create_invoices;  // a generated key of its own, no constraint on order_id
  std::string_view insert_invoice;   // (order_id, amount_cents)
  std::string_view placed_orders;    // the order ids of the run (its one parameter)
  std::string_view invoiced_orders;  // the order id of each of the run's invoices
};

// The services on the store `url`, whose units of work provide the transaction
// wrapper Tx (which declares `static constexpr std::string_view kTypeName`).
template <class Tx>
class SqlServices final : public OrderServices {
 public:
  SqlServices(std::string_view url, const SqlStatements& sql)
      : db_(open_inbox_store(url)), sql_(sql) {}

  void create_tables() const override {
    std::lock_guard lock(mutex_);
    for (const std::string_view ddl : {sql_.create_orders, sql_.create_invoices}) {
      auto unit = db_->begin();
      transaction_as<Tx>(unit->handler_transaction()).exec(ddl);
      unit->commit();
    }
  }

  void write_order(HandlerTransaction& tx, const OrderPlaced& order) const override {
    transaction_as<Tx>(tx).exec(sql_.insert_order, {order.order_id, order.amount_cents});
  }

  void write_invoice(HandlerTransaction& tx, const OrderPlaced& order) const override {
    transaction_as<Tx>(tx).exec(sql_.insert_invoice, {order.order_id, order.amount_cents});
  }

  std::vector<std::string> placed_orders(std::string_view run) const override {
    return order_ids(sql_.placed_orders, run);
  }

  std::vector<std::string> invoiced_orders(std::string_view run) const override {
    return order_ids(sql_.invoiced_orders, run);
  }

 private:
  // The first column of `query`'s rows for `run`, in a unit of its own (a read: it is
  // rolled back).
  std::vector<std::string> order_ids(std::string_view query, std::string_view run) const {
    std::lock_guard lock(mutex_);
    auto unit = db_->begin();
    std::vector<std::string> ids;
    for (const auto& row :
         transaction_as<Tx>(unit->handler_transaction()).query(query, {std::string(run)})) {
      ids.push_back(std::get<std::string>(row.at(0)));
    }
    return ids;
  }

  std::unique_ptr<InboxStore> db_;  // set-up and reads, outside the services' units
  mutable std::mutex mutex_;
  SqlStatements sql_;
};

// The rows of `table` (one of docket's own, e.g. docket_outbox) on `store`, whose units
// of work provide Tx, read through a unit of work of its own.
template <class Tx>
std::int64_t sql_row_count(InboxStore& store, std::string_view table) {
  auto unit = store.begin();
  const auto rows = transaction_as<Tx>(unit->handler_transaction())
                        .query("SELECT count(*) FROM " + std::string(table));
  unit->commit();
  return std::get<std::int64_t>(rows.at(0).at(0));
}

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_SQL_SERVICES_H_
