// Asking a handler's context for a type that is no transaction.
#include "common.h"

void uses(docket::HandlerRegistry& handlers) {
  handlers.on([](const OrderPlaced&, docket::HandlerContext& ctx) {
    (void)ctx.transaction<std::string>();
  });
}
