// Getting started: an order row and its OrderPlaced message commit in one unit; billing
// handles the message through the transactional inbox: delivered twice, it bills once.
// Usage: getting_started [store URL]; only the URL changes between SQLite and PostgreSQL.
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>

#include "docket/docket.h"

struct OrderPlaced {
  static constexpr std::string_view kMessageType = "order-placed";  // its name, given once
  std::string order_id;
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order_id, cents)  // its codec: JSON

int main(int argc, char** argv) try {
  const auto temp_db = std::filesystem::temp_directory_path() / "docket-getting-started.db";
  const std::string url = argc > 1 ? argv[1] : "sqlite://" + temp_db.string();
  auto outbox_store = docket::open_outbox_store(url);
  auto inbox_store = docket::open_inbox_store(url);  // the same database

  // The orders service: the row and its message commit together, or neither does.
  const std::string order_id = "O-" + docket::Uuid::v7().to_string();
  auto unit = outbox_store->begin();
  auto& tx = unit->transaction<docket::SqlTransaction>();  // portable SQL: $1, $2, ...
  tx.execute("CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, cents BIGINT NOT NULL)");
  tx.execute("CREATE TABLE IF NOT EXISTS invoices (order_id TEXT NOT NULL, cents BIGINT NOT NULL)");
  tx.execute("INSERT INTO orders (id, cents) VALUES ($1, $2)", {order_id, 4200});
  const docket::Outbox outbox(*outbox_store);
  const docket::Uuid message_id = outbox.send(tx, OrderPlaced{order_id, 4200});
  unit->commit();

  // The billing service: the invoice commits with the message's dedup record.
  docket::HandlerRegistry handlers;
  handlers.on([](const OrderPlaced& e, docket::SqlTransaction& sql, docket::HandlerContext&) {
    sql.execute("INSERT INTO invoices (order_id, cents) VALUES ($1, $2)", {e.order_id, e.cents});
  });
  const docket::InboxDispatcher billing(*inbox_store, docket::InboxOptions("billing"),
                                        std::move(handlers));

  // A relay would publish the message; here it is delivered by hand, twice.
  const auto message = docket::to_envelope(*outbox_store->find(message_id.to_string()));
  for (int delivery = 1; delivery <= 2; ++delivery) {
    std::cout << "delivery " << delivery << ": " << to_string(billing.dispatch(message)) << '\n';
  }

  auto check = inbox_store->begin();
  const auto rows = check->transaction<docket::SqlTransaction>().fetch(
      "SELECT count(*) FROM invoices WHERE order_id = $1", {order_id});
  const auto invoices = std::get<std::int64_t>(rows.at(0).at(0));
  std::cout << "invoices for " << order_id << ": " << invoices << '\n';
  return invoices == 1 ? 0 : 1;
} catch (const std::exception& e) {  // a docket error names what was wrong and what to do
  std::cerr << "getting_started: " << e.what() << '\n';
  return 2;
}
