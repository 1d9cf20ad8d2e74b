// The control: the same constructs as the failing cases, written right, compile. A
// case that fails only because this harness cannot compile anything proves nothing.
#include "common.h"

struct Account {
  std::int64_t balance = 0;
  void evolve(const Deposited& e) { balance += e.cents; }
};

void uses(docket::HandlerRegistry& handlers, const docket::Outbox& outbox,
          docket::HandlerTransaction& tx, docket::EventStore& events) {
  handlers.on([](const OrderPlaced&, docket::HandlerContext& ctx) {
    (void)ctx.transaction<docket::SqlTransaction>();
  });
  outbox.send(tx, OrderPlaced{"O-1", 1});
  const docket::TypedAggregateRepository<Account, Deposited> accounts(events, "account");
  (void)accounts;
}
