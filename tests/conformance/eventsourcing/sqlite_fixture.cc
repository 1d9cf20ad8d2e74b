// The SQLite provider on a fresh database file in a temporary directory, removed with
// the fixture. The three stores share the file, as an application's would.
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>

#include "docket/sqlite/event_store.h"
#include "docket/sqlite/saga_store.h"
#include "docket/sqlite/snapshot_store.h"
#include "fixture.h"

namespace docket::conformance::eventsourcing {
namespace {

class SqliteFixture final : public StoreFixture {
 public:
  SqliteFixture() {
    std::string dir = (std::filesystem::temp_directory_path() / "docket-events-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) {
      throw std::runtime_error("mkdtemp failed for " + dir);
    }
    dir_ = dir;
    options_.path = (dir_ / "events.db").string();
  }
  ~SqliteFixture() override { std::filesystem::remove_all(dir_); }

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
  std::filesystem::path dir_;
  sqlite::StoreOptions options_;
};

}  // namespace

std::unique_ptr<StoreFixture> make_sqlite_fixture() {
  return std::make_unique<SqliteFixture>();
}

}  // namespace docket::conformance::eventsourcing
