// How the event sourcing conformance suites drive one provider: open fresh stores,
// and (for providers whose transactions can be in flight concurrently) hold an append
// open. Everything else in the suites goes through the SPIs, unchanged for every
// provider.
#ifndef DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_FIXTURE_H_
#define DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_FIXTURE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/store_capabilities.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "docket/sagas/saga_store.h"

namespace docket::conformance::eventsourcing {

// An append whose transaction has taken its global positions but not committed.
// Destroying it without commit() rolls the append back.
class PendingAppend {
 public:
  virtual ~PendingAppend() = default;
  virtual void commit() = 0;
};

class StoreFixture {
 public:
  virtual ~StoreFixture() = default;

  // Stores on a fresh, empty database (the stores of one fixture may share it; it
  // lives as long as the fixture). `clock` outlives the stores.
  // Each only for cases whose provider offers the store (event_providers(),
  // snapshot_providers(), saga_providers()); the defaults throw.
  virtual std::unique_ptr<EventStore> open_event_store(const Clock& clock);
  virtual std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock);
  virtual std::unique_ptr<SagaStore> open_saga_store(const Clock& clock);

  // The late-commit hook, for cases registered with late_commit: begins
  // appending `event` (expected: any version) to `stream` of `store` in a transaction
  // of its own, on its own connection, and returns once the event's global position is
  // assigned, with the transaction still open. Providers that assign positions at
  // commit (memory) have nothing in flight and do not override it.
  virtual std::unique_ptr<PendingAppend> begin_pending_append(EventStore& store,
                                                              const StreamId& stream,
                                                              const NewEvent& event);
};

// One case of the suites, registered by its provider's fixture file
// (src/providers/<name>/conformance/<name>_eventsourcing_fixture.cc) with a FixtureRegistrar.
struct ProviderCase {
  std::string name;      // the test-name suffix: "sqlite_file"
  std::string provider;  // what its stores' provider_name() returns: "sqlite"
  std::function<std::unique_ptr<StoreFixture>()> make;
  // The feed its event store states (capabilities().feed, which every test checks):
  // the feed tests run where it is kGlobalPositions, and the other tests read every
  // stream through it only there.
  FeedKind feed = FeedKind::kNone;
  // Other processes can open the fixture's database.
  bool multi_process = false;
  // Appends can be in flight concurrently, so that a lower global position may commit
  // after a higher one (PostgreSQL); the fixture implements begin_pending_append.
  bool late_commit = false;
};

// Every case the build's fixtures registered; those whose provider offers an event
// store, a snapshot store, both (the aggregate helper's), a saga store (its
// registration, providers/registry.h, says so); those whose event store has global
// positions, and those whose has no feed; those with late_commit.
std::vector<ProviderCase> all_providers();
std::vector<ProviderCase> event_providers();
std::vector<ProviderCase> snapshot_providers();
std::vector<ProviderCase> aggregate_providers();
std::vector<ProviderCase> saga_providers();
std::vector<ProviderCase> global_feed_providers();
std::vector<ProviderCase> feedless_providers();
std::vector<ProviderCase> late_commit_providers();

}  // namespace docket::conformance::eventsourcing

#endif  // DOCKET_TESTS_CONFORMANCE_EVENTSOURCING_FIXTURE_H_
