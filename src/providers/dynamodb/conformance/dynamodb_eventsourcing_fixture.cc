// The DynamoDB provider under the event sourcing suites (tests/conformance/eventsourcing):
// its event, snapshot and saga stores under a table prefix of their own per fixture on the
// DynamoDB Local server of DOCKET_TEST_DYNAMODB_URL (tables deleted with the fixture),
// which other processes reach by the same URL. Its event store has no feed over every
// stream (FeedKind::kNone), so the feed tests do not run on it and the others read its
// streams through load() alone. A missing DOCKET_TEST_DYNAMODB_URL fails every case.
#include "conformance/eventsourcing/fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::conformance::eventsourcing {
namespace {

class DynamoDbFixture final : public StoreFixture {
 public:
  std::unique_ptr<EventStore> open_event_store(const Clock& clock) override {
    return docket::open_event_store(tables_.url(), clock);
  }
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return docket::open_snapshot_store(tables_.url(), clock);
  }
  std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) override {
    return docket::open_saga_store(tables_.url(), clock);
  }

 private:
  test_support::DynamoDbTables tables_;
};

const FixtureRegistrar<ProviderCase> kDynamoDbEventsourcingCase{
    {.name = "dynamodb",
     .provider = "dynamodb",
     .make = [] { return std::unique_ptr<StoreFixture>(std::make_unique<DynamoDbFixture>()); },
     .feed = FeedKind::kNone,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance::eventsourcing
