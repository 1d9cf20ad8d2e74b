// The Cosmos DB provider under the event sourcing suites (tests/conformance/eventsourcing):
// its event, snapshot and saga stores in a database of their own per fixture on the test
// server of DOCKET_TEST_COSMOS_URL (deleted with the fixture), which other processes reach
// by the same URL. Its event store has no feed over every stream (FeedKind::kNone), so
// the feed tests do not run on it and the others read its streams through load() alone.
// A missing DOCKET_TEST_COSMOS_URL fails every case.
#include "conformance/eventsourcing/fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::conformance::eventsourcing {
namespace {

class CosmosEventsourcingFixture final : public StoreFixture {
 public:
  std::unique_ptr<EventStore> open_event_store(const Clock& clock) override {
    return docket::open_event_store(database_.url(), clock);
  }
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return docket::open_snapshot_store(database_.url(), clock);
  }
  std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) override {
    return docket::open_saga_store(database_.url(), clock);
  }

 private:
  test_support::CosmosDatabase database_;
};

const FixtureRegistrar<ProviderCase> kCosmosEventsourcingCase{
    {.name = "cosmos",
     .provider = "cosmos",
     .make =
         [] {
           return std::unique_ptr<StoreFixture>(std::make_unique<CosmosEventsourcingFixture>());
         },
     .feed = FeedKind::kNone,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance::eventsourcing
