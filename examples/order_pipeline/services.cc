#include "services.h"

#include <nlohmann/json.hpp>
#include <string>

#include "docket/handler_registry.h"
#include "docket/inbox_dispatcher.h"
#include "docket/sqlite/transaction.h"
#include "docket/transport.h"

namespace docket::examples {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order_id, amount_cents)

namespace {

sqlite::Transaction& sql(HandlerTransaction& tx) {
  return dynamic_cast<sqlite::Transaction&>(tx);
}

void create_table(std::unique_ptr<UnitOfWork> unit, const char* ddl) {
  sql(unit->handler_transaction()).exec(ddl);
  unit->commit();
}

}  // namespace

void create_orders_table(OutboxStore& store) {
  create_table(store.begin(),
               "CREATE TABLE IF NOT EXISTS orders (order_id TEXT PRIMARY KEY, "
               "amount_cents INTEGER NOT NULL)");
}

void place_orders(OutboxStore& store, const Outbox& outbox, const std::string& run,
                  std::size_t count, std::atomic<std::size_t>& placed) {
  for (std::size_t i = 1; i <= count; ++i) {
    const OrderPlaced order{run + "-" + std::to_string(i), static_cast<std::int64_t>(i * 250)};
    auto unit = store.begin();
    auto& tx = sql(unit->handler_transaction());
    tx.exec("INSERT INTO orders (order_id, amount_cents) VALUES (?1, ?2)",
            {order.order_id, order.amount_cents});
    outbox.stage(tx, {.event_type = "OrderPlaced",
                      .payload = JsonCodec<OrderPlaced>().encode(order),
                      .source = "orders",
                      .correlation_id = order.order_id});
    unit->commit();  // the order and its message, together
    ++placed;
  }
}

void create_invoices_table(InboxStore& store) {
  create_table(store.begin(),
               "CREATE TABLE IF NOT EXISTS invoices (invoice_id INTEGER PRIMARY KEY, "
               "order_id TEXT NOT NULL, amount_cents INTEGER NOT NULL)");
}

void consume_orders(InboxStore& store, InProcessTransport& transport, BillingCounters& counters,
                    std::stop_token stop, std::uint64_t crash_after) {
  HandlerRegistry handlers;
  handlers.on<OrderPlaced>("OrderPlaced", [](const OrderPlaced& order, HandlerContext& ctx) {
    // Written through the inbox's transaction: it commits with the dedup row, or not at all.
    ctx.transaction<sqlite::Transaction>().exec(
        "INSERT INTO invoices (order_id, amount_cents) VALUES (?1, ?2)",
        {order.order_id, order.amount_cents});
  });
  const InboxDispatcher billing(store, InboxOptions("billing"), std::move(handlers));
  std::uint64_t handled = 0;
  while (!stop.stop_requested()) {
    auto delivery = transport.receive(std::chrono::milliseconds(20));
    if (!delivery) {
      continue;
    }
    const DispatchOutcome outcome = dispatch_message(billing, delivery->message);
    ++(outcome == DispatchOutcome::kProcessed ? counters.processed : counters.skipped_duplicates);
    if (++handled > crash_after) {
      return;  // "crash": committed, never acknowledged; the transport will redeliver
    }
    transport.ack(delivery->tag);
  }
}

InvoiceCount count_invoices(InboxStore& store, const std::string& run) {
  auto unit = store.begin();
  const auto rows = sql(unit->handler_transaction())
                        .query(
                            "SELECT count(*), count(*) - count(DISTINCT order_id) FROM invoices "
                            "WHERE order_id LIKE ?1 || '-%'",
                            {run});
  return {std::get<std::int64_t>(rows.at(0).at(0)), std::get<std::int64_t>(rows.at(0).at(1))};
}

}  // namespace docket::examples
