// docs/dynamodb-stores.md's C++ block, compiled (tests/docs/check_snippets.cmake):
// a handler writing through DynamoDB's transaction. Compiled only: nothing runs.
//
// Thread-safety: nothing runs.
#include <string>

#include "docket/docket.h"
#include "docket/dynamodb/transaction.h"

namespace docs_dynamodb {

struct Order {
  std::string id;
  std::string sku;
  int qty = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Order, id, sku, qty)

void run(docket::HandlerRegistry& handlers) {
  // clang-format off
handlers.on<Order>("order", [](const Order& o, docket::dynamodb::Transaction& tx,
                               docket::HandlerContext&) {
  const std::string qty = std::to_string(o.qty);
  tx.insert("orders", {{"id", {{"S", o.id}}}, {"qty", {{"N", qty}}}});
  tx.update("stock", {{"sku", {{"S", o.sku}}}},
            {.text = "SET #qty = #qty - :n",
             .names = {{"#qty", "qty"}},
             .values = {{":n", {{"N", qty}}}}},
            docket::dynamodb::Expression{.text = "#qty >= :n"});  // else ConditionFailedError
});
  // clang-format on
}

}  // namespace docs_dynamodb
