// The Firestore provider under the event sourcing suites (tests/conformance/eventsourcing):
// its snapshot store, under a collection prefix of its own per fixture on the Firestore
// emulator of DOCKET_TEST_FIRESTORE_URL (documents deleted with the fixture). It offers
// no event or saga store yet, so only the snapshot tests run on it
// (snapshot_providers()). A missing DOCKET_TEST_FIRESTORE_URL fails every case.
#include "conformance/eventsourcing/fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/open_snapshot_store.h"
#include "providers/firestore/tests/firestore_collections.h"

namespace docket::conformance::eventsourcing {
namespace {

class FirestoreFixture final : public StoreFixture {
 public:
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return docket::open_snapshot_store(collections_.url(), clock);
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
