#include "services.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/error.h"
#include "docket/handler_registry.h"
#include "docket/inbox_dispatcher.h"
#include "docket/sqlite/transaction.h"
#include "docket/transport.h"
#if DOCKET_HAVE_POSTGRES
#include "docket/postgres/transaction.h"
#endif

namespace docket::examples {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order_id, amount_cents)

namespace {

// The services' SQL in each database they run on. The dialects differ only in how
// parameters are numbered (?1 / $1) and how the invoices' key is generated.
struct Statements {
  std::string_view create_orders;
  std::string_view insert_order;
  std::string_view create_invoices;
  std::string_view insert_invoice;
  std::string_view count_invoices;  // the run's invoices, and how many repeat an order
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
    .count_invoices =
        "SELECT count(*), count(*) - count(DISTINCT order_id) FROM invoices "
        "WHERE order_id LIKE ?1 || '-%'"};

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
    .count_invoices =
        "SELECT count(*), count(*) - count(DISTINCT order_id) FROM invoices "
        "WHERE order_id LIKE $1 || '-%'"};
#endif

// Calls body(native transaction, its dialect's statements) with the store's own
// transaction wrapper, so that each service is written once for both databases.
template <class Body>
decltype(auto) with_sql(HandlerTransaction& tx, Body&& body) {
  if (auto* sqlite_tx = dynamic_cast<sqlite::Transaction*>(&tx)) {
    return body(*sqlite_tx, kSqliteSql);
  }
#if DOCKET_HAVE_POSTGRES
  if (auto* postgres_tx = dynamic_cast<postgres::Transaction*>(&tx)) {
    return body(*postgres_tx, kPostgresSql);
  }
#endif
  throw ConfigurationError(
      "demo: the order pipeline's services have SQL for SQLite and "
      "PostgreSQL, not for a store whose transaction is " +
      std::string(tx.type_name()) + "; pass a sqlite: or postgresql: store URL");
}

void create_table(std::unique_ptr<UnitOfWork> unit, std::string_view Statements::*ddl) {
  with_sql(unit->handler_transaction(),
           [&](auto& tx, const Statements& sql) { tx.exec(sql.*ddl); });
  unit->commit();
}

}  // namespace

void create_orders_table(OutboxStore& store) {
  create_table(store.begin(), &Statements::create_orders);
}

void place_orders(OutboxStore& store, const Outbox& outbox, const std::string& run,
                  std::size_t count, std::atomic<std::size_t>& placed) {
  for (std::size_t i = 1; i <= count; ++i) {
    const OrderPlaced order{run + "-" + std::to_string(i), static_cast<std::int64_t>(i * 250)};
    auto unit = store.begin();
    with_sql(unit->handler_transaction(), [&](auto& tx, const Statements& sql) {
      tx.exec(sql.insert_order, {order.order_id, order.amount_cents});
      outbox.stage(tx, {.event_type = "OrderPlaced",
                        .payload = JsonCodec<OrderPlaced>().encode(order),
                        .source = "orders",
                        .correlation_id = order.order_id});
    });
    unit->commit();  // the order and its message, together
    ++placed;
  }
}

void create_invoices_table(InboxStore& store) {
  create_table(store.begin(), &Statements::create_invoices);
}

void consume_orders(InboxStore& store, InProcessTransport& transport, BillingCounters& counters,
                    std::stop_token stop, std::uint64_t crash_after) {
  HandlerRegistry handlers;
  handlers.on<OrderPlaced>("OrderPlaced", [](const OrderPlaced& order, HandlerContext& ctx) {
    // Written through the inbox's transaction: it commits with the dedup row, or not at all.
    with_sql(ctx.transaction(), [&](auto& tx, const Statements& sql) {
      tx.exec(sql.insert_invoice, {order.order_id, order.amount_cents});
    });
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
  return with_sql(unit->handler_transaction(), [&](auto& tx, const Statements& sql) {
    const auto rows = tx.query(sql.count_invoices, {run});
    return InvoiceCount{std::get<std::int64_t>(rows.at(0).at(0)),
                        std::get<std::int64_t>(rows.at(0).at(1))};
  });
}

}  // namespace docket::examples
