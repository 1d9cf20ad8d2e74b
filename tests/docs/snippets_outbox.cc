// docs/outbox.md's C++ blocks, compiled (tests/docs/check_snippets.cmake): declarations
// at namespace scope, statements in a function that declares what they use. Compiled
// only: nothing here runs.
//
// Thread-safety: nothing runs.
#include <cstdint>
#include <string>

#include "docket/docket.h"
#include "docket/sqlite/transaction.h"

namespace docs_outbox {

// clang-format off
struct OrderPlaced {
  static constexpr std::string_view kMessageType = "order-placed";   // named once
  std::string order;
  std::int64_t cents = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(OrderPlaced, order, cents)
// clang-format on

void stage_order(const std::string& id, std::int64_t cents) {
  // clang-format off
auto store = docket::open_outbox_store("sqlite:///var/lib/orders.db");
docket::Outbox outbox(*store);

auto unit = store->begin();                       // the producer's unit of work
auto& tx = unit->transaction<docket::sqlite::Transaction>();   // checked
tx.exec("INSERT INTO orders (order_id, amount_cents) VALUES (?1, ?2)", {id, cents});
outbox.send(tx, OrderPlaced{id, cents});          // "order-placed", JSON
unit->commit();                                   // both, or (destroyed uncommitted) neither
                   // clang-format on
}

}  // namespace docs_outbox
