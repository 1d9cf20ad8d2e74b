// What the order pipeline's two services keep in their own tables, on one store: the
// part of `docket demo` that differs between databases. The pipeline (services.cc,
// order_pipeline.cc) is written once over this interface; each provider the demo runs
// on gives its services in src/providers/<name>/demo/ (a DemoProvider below, listed
// with the provider by src/providers/CMakeLists.txt, found by services_for_store.h):
// those with SQL through the SQL services written once here (sql_services.h), the
// others their own, so that no line here names a provider.
//
// Invariants every implementation keeps:
//  - the order and the invoice are written through the unit of work's own transaction
//    (the public provider wrapper), so they commit with the outbox message and the
//    inbox's dedup record, or not at all;
//  - each write_invoice() call adds a new invoice: nothing (no unique constraint on the
//    order) can hide a message processed twice, which count_invoices() would then show;
//  - a run's orders are those whose id begins with "<run>-" (services.h), so runs on one
//    database keep apart;
//  - placed_orders() and invoiced_orders() read what committed, whole: a reader after
//    a run (the demo's count, `docket chaos`'s checks) sees every order and invoice.
//
// Thread-safety: an implementation is immutable once made; every member may be called
// from many threads at once (each with its own transaction).
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_ORDER_SERVICES_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_ORDER_SERVICES_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/handler_transaction.h"
#include "docket/inbox/inbox_store.h"

namespace docket::examples {

struct OrderPlaced {
  std::string order_id;
  std::int64_t amount_cents = 0;
};

class OrderServices {
 public:
  virtual ~OrderServices() = default;

  // Set-up, before any order: creates the orders and invoices tables when missing.
  // Throws ConfigurationError when the store is one these services cannot write to.
  virtual void create_tables() const = 0;
  // The orders service: writes the order through `tx`, the unit of work that also
  // stages its OrderPlaced.
  virtual void write_order(HandlerTransaction& tx, const OrderPlaced& order) const = 0;
  // The billing service's handler: writes one new invoice of `order` through `tx`, the
  // inbox's unit of work.
  virtual void write_invoice(HandlerTransaction& tx, const OrderPlaced& order) const = 0;
  // The ids of the orders of `run` placed, in no particular order, read after the run
  // (strongly consistent where the database offers it).
  virtual std::vector<std::string> placed_orders(std::string_view run) const = 0;
  // The order id of each invoice of an order of `run`, read likewise: an order
  // invoiced twice appears twice.
  virtual std::vector<std::string> invoiced_orders(std::string_view run) const = 0;
};

// Invoices of one run's orders, and how many of them repeat an order already invoiced.
struct InvoiceCount {
  std::int64_t invoices = 0;
  std::int64_t duplicates = 0;
};

// The invoices of `run`, counted from services.invoiced_orders(run).
inline InvoiceCount count_invoices(const OrderServices& services, std::string_view run) {
  std::vector<std::string> orders = services.invoiced_orders(run);
  std::sort(orders.begin(), orders.end());
  const auto distinct = std::unique(orders.begin(), orders.end()) - orders.begin();
  return {.invoices = static_cast<std::int64_t>(orders.size()),
          .duplicates = static_cast<std::int64_t>(orders.size()) - distinct};
}

// A provider's services (src/providers/<name>/demo/, defining
//   const docket::examples::DemoProvider& docket::<name>::demo_services();
// in the library docket_<name>_demo): the URL it shows in help and messages, its
// services on a store URL of the provider, and, optionally, a count of docket's own
// rows for `docket soak`.
struct DemoProvider {
  std::string_view example_url;
  std::unique_ptr<OrderServices> (*open)(std::string_view url) = nullptr;
  // The rows of `table` (one of docket's own, e.g. docket_outbox) on `store`, a store
  // of this provider, read through a unit of work of its own; nullptr: not counted.
  std::int64_t (*table_rows)(InboxStore& store, std::string_view table) = nullptr;
};

// `tx` as the provider wrapper T (docket::transaction_as: a ConfigurationError naming
// both types when it is another provider's).
template <class T>
T& transaction_as(HandlerTransaction& tx) {
  return docket::transaction_as<T>(tx, "the demo's order services", "store's");
}

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_ORDER_SERVICES_H_
