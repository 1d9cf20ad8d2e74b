// Test code: the one-field order message the PostgreSQL inbox integration tests
// dispatch, as an event type a handler registry decodes and as an envelope, and the
// orders table their handlers write.
//
// Thread-safety: value types and pure functions.
#ifndef DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_ORDER_ENVELOPE_H_
#define DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_ORDER_ENVELOPE_H_

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "docket/inbox/inbox_envelope.h"
#include "docket/inbox/inbox_store.h"
#include "docket/postgres/transaction.h"

namespace docket::integration_orders {

struct Order {
  std::string id;
};
inline void from_json(const nlohmann::json& j, Order& order) {
  j.at("id").get_to(order.id);
}

// Message `message_id` of event type "order", carrying order `order_id`.
inline Envelope order(std::string message_id, std::string order_id) {
  Envelope e;
  e.message_id = std::move(message_id);
  e.event_type = "order";
  e.payload = nlohmann::json{{"id", std::move(order_id)}}.dump();
  e.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return e;
}

// The ids in the orders table of `store`'s schema, in order, read in a unit of work of
// its own.
inline std::vector<std::string> stored_order_ids(InboxStore& store) {
  auto unit = store.begin();
  std::vector<std::string> ids;
  for (const postgres::Row& row : dynamic_cast<postgres::Transaction&>(unit->handler_transaction())
                                      .query("SELECT id FROM orders ORDER BY id")) {
    ids.push_back(std::get<std::string>(row.at(0)));
  }
  return ids;
}

}  // namespace docket::integration_orders

#endif  // DOCKET_PROVIDERS_POSTGRES_TESTS_POSTGRES_ORDER_ENVELOPE_H_
