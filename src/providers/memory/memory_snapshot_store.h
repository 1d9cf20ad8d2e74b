// The memory snapshot store: the latest snapshot per stream of a memory database.
//
// Locking: the database's reader/writer lock; save holds it exclusively (compare
// versions and replace in one step), load holds it shared.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_SNAPSHOT_STORE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_SNAPSHOT_STORE_H_

#include <memory>

#include "docket/eventsourcing/snapshot_store.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/memory/memory_capabilities.h"
#include "providers/memory/memory_database.h"

namespace docket::memory::detail {

class MemorySnapshotStore final : public SnapshotStore {
 public:
  explicit MemorySnapshotStore(std::shared_ptr<Database> database) noexcept
      : SnapshotStore(database->clock()), database_(std::move(database)) {}

  std::string_view provider_name() const noexcept override { return "memory"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::snapshot_store_capabilities(kMemoryCapabilities);
  }

 private:
  SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) override;
  std::optional<Snapshot> do_load(const StreamId& stream) override;

  std::shared_ptr<Database> database_;
};

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_SNAPSHOT_STORE_H_
