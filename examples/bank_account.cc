// An event-sourced bank account on the memory stores: the state, how events change it,
// and commands that decide new events. Swap memory:: for another provider's stores and
// nothing else changes.
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/eventsourcing/aggregate.h"
#include "docket/memory/event_store.h"
#include "docket/memory/snapshot_store.h"

namespace {

struct Account {
  std::int64_t balance = 0;
};

docket::AggregateSpec<Account> account_spec() {
  return {.aggregate_type = "account",
          .apply =
              [](Account& a, const docket::RecordedEvent& e) {
                const std::int64_t amount = std::stoll(e.payload);
                a.balance += e.type == "deposited" ? amount : -amount;
              },
          .initial = {},
          .encode_snapshot = [](const Account& a) { return std::to_string(a.balance); },
          .decode_snapshot = [](std::string_view p) -> std::optional<Account> {
            return Account{std::stoll(std::string(p))};
          },
          .snapshot_after_events = 100};
}

// A command: refuses an overdraft, otherwise decides one event.
auto withdraw(std::int64_t amount) {
  return [amount](const Account& a) {
    if (a.balance < amount) {
      throw std::runtime_error("insufficient funds: balance " + std::to_string(a.balance) +
                               ", asked " + std::to_string(amount));
    }
    return std::vector<docket::NewEvent>{{.type = "withdrawn", .payload = std::to_string(amount)}};
  };
}

auto deposit(std::int64_t amount) {
  return [amount](const Account&) {
    return std::vector<docket::NewEvent>{{.type = "deposited", .payload = std::to_string(amount)}};
  };
}

}  // namespace

int main() {
  auto events = docket::memory::open_event_store();
  auto snapshots = docket::memory::open_snapshot_store();
  docket::AggregateRepository<Account> accounts(*events, account_spec(), snapshots.get());
  const docket::TenantId tenant("acme");

  accounts.execute(tenant, "A-1", deposit(100));
  const auto result = accounts.execute(tenant, "A-1", withdraw(30));
  if (result.conflict) {  // another writer was first: reload and retry, or report
    std::cerr << result.conflict->message() << '\n';
    return 1;
  }
  std::cout << "balance " << result.state.balance << " at version " << result.version << '\n';

  try {
    accounts.execute(tenant, "A-1", withdraw(500));
  } catch (const std::runtime_error& refused) {
    std::cout << "refused: " << refused.what() << '\n';
  }
  return accounts.load(tenant, "A-1").state.balance == 70 ? 0 : 1;
}
