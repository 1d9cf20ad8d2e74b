// The memory provider: every store is a fresh, process-local one.
#include "docket/memory/event_store.h"
#include "docket/memory/saga_store.h"
#include "docket/memory/snapshot_store.h"
#include "fixture.h"

namespace docket::conformance::eventsourcing {
namespace {

class MemoryFixture final : public StoreFixture {
 public:
  std::unique_ptr<EventStore> open_event_store(const Clock& clock) override {
    return memory::open_event_store(clock);
  }
  std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) override {
    return memory::open_snapshot_store(clock);
  }
  std::unique_ptr<SagaStore> open_saga_store(const Clock& clock) override {
    return memory::open_saga_store(clock);
  }
};

}  // namespace

std::unique_ptr<StoreFixture> make_memory_fixture() {
  return std::make_unique<MemoryFixture>();
}

}  // namespace docket::conformance::eventsourcing
