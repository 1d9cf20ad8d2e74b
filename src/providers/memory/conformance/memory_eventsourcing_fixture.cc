// The memory provider under the event sourcing suites (tests/conformance/eventsourcing):
// the stores of one fixture share one fresh memory database, as the SQL fixtures'
// stores share one database.
#include <optional>

#include "conformance/eventsourcing/fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/core/error.h"
#include "docket/memory/database.h"
#include "docket/memory/event_store.h"
#include "docket/memory/saga_store.h"
#include "docket/memory/snapshot_store.h"

namespace docket::conformance::eventsourcing {
namespace {

class MemoryFixture final : public StoreFixture {
 public:
  std::unique_ptr<EventStore> open_event_store(const Clock& clock) override {
    return memory::open_event_store(database(clock));
  }
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return memory::open_snapshot_store(database(clock));
  }
  std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) override {
    return memory::open_saga_store(database(clock));
  }

 private:
  // The database stamps with the clock it was opened with, so every store of the
  // fixture must be opened with that one.
  const memory::Database& database(const Clock& clock) {
    if (!database_) {
      database_ = memory::open_database(clock);
      clock_ = &clock;
    } else if (clock_ != &clock) {
      throw ConfigurationError(
          "the memory fixture's stores share one database and its clock: open them all with "
          "the same clock");
    }
    return *database_;
  }

  std::optional<memory::Database> database_;
  const Clock* clock_ = nullptr;
};

// Positions are assigned at commit: nothing is ever in flight.
const FixtureRegistrar<ProviderCase> kMemoryEventsourcingCase{
    {.name = "memory",
     .provider = "memory",
     .make = [] { return std::unique_ptr<StoreFixture>(std::make_unique<MemoryFixture>()); },
     .feed = FeedKind::kGlobalPositions}};

}  // namespace
}  // namespace docket::conformance::eventsourcing
