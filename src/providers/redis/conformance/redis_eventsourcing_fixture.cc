// The Redis provider under the event sourcing suites (tests/conformance/eventsourcing):
// its event, snapshot and saga stores (those its registration offers), under a key
// prefix of its own per fixture on the Redis server of DOCKET_TEST_REDIS_URL (keys
// deleted with the fixture), which other processes reach by the same URL. Its event
// store has a feed of global positions drawn inside the commit script, so nothing is
// ever in flight below a visible position (no late_commit). A missing
// DOCKET_TEST_REDIS_URL fails every case.
#include "conformance/eventsourcing/fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::conformance::eventsourcing {
namespace {

class RedisStoresFixture final : public StoreFixture {
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
  test_support::RedisDatabase database_;
};

const FixtureRegistrar<ProviderCase> kRedisEventsourcingCase{
    {.name = "redis",
     .provider = "redis",
     .make = [] { return std::unique_ptr<StoreFixture>(std::make_unique<RedisStoresFixture>()); },
     .feed = FeedKind::kGlobalPositions,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance::eventsourcing
