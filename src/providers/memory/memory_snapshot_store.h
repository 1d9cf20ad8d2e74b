// The memory snapshot store: the latest snapshot per stream in a map.
//
// Locking: one reader/writer lock; save holds it exclusively (compare versions and
// replace in one step), load holds it shared.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_SNAPSHOT_STORE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_SNAPSHOT_STORE_H_

#include <map>
#include <shared_mutex>

#include "docket/snapshot_store.h"

namespace docket::memory::detail {

class MemorySnapshotStore final : public SnapshotStore {
 public:
  explicit MemorySnapshotStore(const Clock& clock) noexcept : SnapshotStore(clock) {}

  std::string_view provider_name() const noexcept override { return "memory"; }

 private:
  SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) override;
  std::optional<Snapshot> do_load(const StreamId& stream) override;

  mutable std::shared_mutex mutex_;
  std::map<StreamId, Snapshot> snapshots_;
};

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_SNAPSHOT_STORE_H_
