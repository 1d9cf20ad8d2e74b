// The SQLite provider under the checkpoint suite (tests/conformance/checkpoint): a
// fresh database file per fixture, opened by its URL.
#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "docket/stores/open_store.h"

namespace docket::conformance {
namespace {

class SqliteCheckpointFixture final : public CheckpointFixture {
 public:
  std::unique_ptr<CheckpointStore> open(const Clock& clock) override {
    return open_checkpoint_store("sqlite://" + dir_.file("checkpoints.db"), clock);
  }

 private:
  eventsourcing::TempDir dir_;
};

const FixtureRegistrar<CheckpointCase> kSqliteCheckpointCase{
    {.name = "sqlite", .provider = "sqlite", .make = [] {
       return std::unique_ptr<CheckpointFixture>(std::make_unique<SqliteCheckpointFixture>());
     }}};

}  // namespace
}  // namespace docket::conformance
