#include "providers/memory/memory_snapshot_store.h"

#include <memory>
#include <mutex>

#include "docket/memory/snapshot_store.h"

namespace docket::memory {
namespace detail {

SnapshotSaveOutcome MemorySnapshotStore::do_save(const StreamId& stream, const Snapshot& snapshot) {
  std::unique_lock lock(mutex_);
  auto found = snapshots_.find(stream);
  if (found == snapshots_.end()) {
    snapshots_.emplace(stream, snapshot);
    return SnapshotSaveOutcome::kSaved;
  }
  if (found->second.version > snapshot.version) {
    return SnapshotSaveOutcome::kKeptNewer;
  }
  found->second = snapshot;
  return SnapshotSaveOutcome::kSaved;
}

std::optional<Snapshot> MemorySnapshotStore::do_load(const StreamId& stream) {
  std::shared_lock lock(mutex_);
  auto found = snapshots_.find(stream);
  if (found == snapshots_.end()) {
    return std::nullopt;
  }
  return found->second;
}

}  // namespace detail

std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) {
  return std::make_unique<detail::MemorySnapshotStore>(clock);
}

}  // namespace docket::memory
