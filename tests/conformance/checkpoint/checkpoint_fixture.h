// How the checkpoint conformance suite reaches one provider: stores on a fresh, empty
// database per fixture. Everything else goes through the SPI
// (docket/inbox/checkpoint_store.h), unchanged for every provider.
#ifndef DOCKET_TESTS_CONFORMANCE_CHECKPOINT_CHECKPOINT_FIXTURE_H_
#define DOCKET_TESTS_CONFORMANCE_CHECKPOINT_CHECKPOINT_FIXTURE_H_

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/stores/open_store.h"

namespace docket::conformance {

class CheckpointFixture {
 public:
  virtual ~CheckpointFixture() = default;

  // A checkpoint store on this fixture's database (fresh and empty on the first call;
  // every call opens another store onto the same database).
  virtual std::unique_ptr<CheckpointStore> open(const Clock& clock) = 0;
};

// The fixture of a provider whose stores open by URL: a store on `Database`'s URL each
// call. Database owns a fresh database for its lifetime and has url() (a provider's test
// support: PostgresSchema, DynamoDbTables, ...).
template <class Database>
class UrlCheckpointFixture final : public CheckpointFixture {
 public:
  std::unique_ptr<CheckpointStore> open(const Clock& clock) override {
    return open_checkpoint_store(database_.url(), clock);
  }

 private:
  Database database_;
};

// One case of the suite, registered by its provider's fixture file
// (src/providers/<name>/conformance/<name>_checkpoint_fixture.cc) with a FixtureRegistrar.
struct CheckpointCase {
  std::string name;      // the test-name suffix: "sqlite"
  std::string provider;  // the provider's registry name: "sqlite"
  std::function<std::unique_ptr<CheckpointFixture>()> make;
};

void PrintTo(const CheckpointCase& provider, std::ostream* os);

// Every case the build's fixtures registered.
std::vector<CheckpointCase> all_checkpoint_providers();

}  // namespace docket::conformance

#endif  // DOCKET_TESTS_CONFORMANCE_CHECKPOINT_CHECKPOINT_FIXTURE_H_
