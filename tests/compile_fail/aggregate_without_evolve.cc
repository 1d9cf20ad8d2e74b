// A typed aggregate whose state cannot evolve by one of its event types.
#include "common.h"

struct Account {
  std::int64_t balance = 0;
};

void uses(docket::EventStore& events) {
  const docket::TypedAggregateRepository<Account, Deposited> accounts(events, "account");
  (void)accounts;
}
