// The memory provider under the checkpoint suite (tests/conformance/checkpoint): the
// stores of one fixture share one fresh memory database.
#include <optional>

#include "conformance/checkpoint/checkpoint_fixture.h"
#include "conformance/fixture_registry.h"
#include "docket/memory/checkpoint_store.h"

namespace docket::conformance {
namespace {

class MemoryCheckpointFixture final : public CheckpointFixture {
 public:
  std::unique_ptr<CheckpointStore> open(const Clock& clock) override {
    if (!database_) {
      database_.emplace(memory::open_database(clock));
    }
    return memory::open_checkpoint_store(*database_);
  }

 private:
  std::optional<memory::Database> database_;
};

const FixtureRegistrar<CheckpointCase> kMemoryCheckpointCase{
    {.name = "memory", .provider = "memory", .make = [] {
       return std::unique_ptr<CheckpointFixture>(std::make_unique<MemoryCheckpointFixture>());
     }}};

}  // namespace
}  // namespace docket::conformance
