// A handler whose second parameter is neither a HandlerContext nor a transaction.
#include "common.h"

void uses(docket::HandlerRegistry& handlers) {
  handlers.on<OrderPlaced>("order-placed", [](const OrderPlaced&, int) {});
}
