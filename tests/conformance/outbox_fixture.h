// How the outbox conformance suite drives one provider: open a fresh outbox store,
// write a producer's own row ("orders") natively in a unit of work, count those rows
// natively. Everything else goes through the SPI, unchanged for every provider.
#ifndef DOCKET_TESTS_CONFORMANCE_OUTBOX_FIXTURE_H_
#define DOCKET_TESTS_CONFORMANCE_OUTBOX_FIXTURE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/handler_transaction.h"
#include "docket/outbox/outbox_store.h"

namespace docket::conformance {

class OutboxFixture {
 public:
  virtual ~OutboxFixture() = default;

  // An outbox store on a fresh, empty database where the producer's table "orders"
  // (unique key `id`) exists. Called once or twice per fixture: a second call opens
  // another, unrelated database (for the foreign-transaction refusal).
  virtual std::unique_ptr<OutboxStore> open(const Clock& clock) = 0;

  // Inserts the order `id` through the producer's native transaction.
  virtual void insert_order(HandlerTransaction& tx, const std::string& id) = 0;

  // Committed orders, read natively.
  virtual std::int64_t count_orders(OutboxStore& store) = 0;
};

// One case of the suite, registered by its provider's fixture file
// (src/providers/<name>/conformance/<name>_outbox_fixture.cc) with a FixtureRegistrar.
struct OutboxProviderCase {
  std::string name;      // the test-name suffix: "sqlite_file"
  std::string provider;  // what its stores' provider_name() returns: "sqlite"
  std::function<std::unique_ptr<OutboxFixture>()> make;
  // Two producers' transactions can be open at once, so that a lower sequence may
  // commit after a higher one (not SQLite: one writer at a time).
  bool concurrent_commits = false;
  // A commit that staged messages notifies the store's staged_signal() (memory,
  // SQLite, PostgreSQL); the other stores have none.
  bool wakes_relays = false;
};

void PrintTo(const OutboxProviderCase& provider, std::ostream* os);

// Every case the build's fixtures registered, and those with concurrent_commits.
std::vector<OutboxProviderCase> all_outbox_providers();
std::vector<OutboxProviderCase> concurrent_commit_outbox_providers();
std::vector<OutboxProviderCase> waking_outbox_providers();

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_OUTBOX_FIXTURE_H_
