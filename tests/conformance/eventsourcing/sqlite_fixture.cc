// The SQLite provider on a fresh database file in a temporary directory, removed with
// the fixture. The three stores share the file, as an application's would.
#include "docket/sqlite/event_store.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/snapshot_store.h"
#include "fixture.h"
#include "temp_dir.h"

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

}  // namespace

std::unique_ptr<StoreFixture> make_sqlite_fixture() {
  return std::make_unique<SqliteFixture>();
}

}  // namespace docket::conformance::eventsourcing
