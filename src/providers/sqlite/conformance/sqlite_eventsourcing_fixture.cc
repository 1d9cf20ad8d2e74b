// The SQLite provider under the event sourcing suites (tests/conformance/eventsourcing):
// a fresh database file in a temporary directory, removed with the fixture. The three
// stores share the file, as an application's would.
#include "conformance/eventsourcing/fixture.h"
#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/snapshot_store.h"

namespace docket::conformance::eventsourcing {
namespace {

class SqliteFixture final : public StoreFixture {
 public:
  SqliteFixture() { options_.path = dir_.file("events.db"); }

  std::unique_ptr<EventStore> open_event_store(const Clock& clock) override {
    return sqlite::open_event_store(options_, clock);
  }
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return sqlite::open_snapshot_store(options_, clock);
  }
  std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) override {
    return sqlite::open_saga_store(options_, clock);
  }

 private:
  TempDir dir_;
  sqlite::StoreOptions options_;
};

// Not late_commit: a writer holds the database's single write lock from the position's
// assignment to the commit, so no append is ever in flight beside another (a second
// append waits for the lock), and positions become visible in ascending order.
const FixtureRegistrar<ProviderCase> kSqliteEventsourcingCase{
    {.name = "sqlite_file",
     .provider = "sqlite",
     .make = [] { return std::unique_ptr<StoreFixture>(std::make_unique<SqliteFixture>()); },
     .feed = FeedKind::kGlobalPositions,
     .multi_process = true}};

}  // namespace
}  // namespace docket::conformance::eventsourcing
