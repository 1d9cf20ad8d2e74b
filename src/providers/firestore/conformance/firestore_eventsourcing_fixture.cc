// The Firestore provider under the event sourcing suites (tests/conformance/eventsourcing):
// its event, snapshot and saga stores, under a collection prefix of its own per fixture on the
// Firestore emulator of DOCKET_TEST_FIRESTORE_URL (documents deleted with the fixture),
// which other processes reach by the same URL. Its event store has no feed over every
// stream (FeedKind::kNone), so the feed tests do not run on it and the others read its
// streams through load() alone. A missing DOCKET_TEST_FIRESTORE_URL fails every case.
#include "conformance/eventsourcing/fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::conformance::eventsourcing {
namespace {

class FirestoreFixture final : public StoreFixture {
 public:
  std::unique_ptr<EventStore> open_event_store(const Clock& clock) override {
    return docket::open_event_store(collections_.url(), clock);
  }
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return docket::open_snapshot_store(collections_.url(), clock);
  }
  std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) override {
    return docket::open_saga_store(collections_.url(), clock);
  }

 private:
  test_support::FirestoreCollections collections_;
};

const FixtureRegistrar<ProviderCase> kFirestoreEventsourcingCase{
    {.name = "firestore",
     .provider = "firestore",
     .make = [] { return std::unique_ptr<StoreFixture>(std::make_unique<FirestoreFixture>()); },
     .feed = FeedKind::kNone,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance::eventsourcing
