#include "providers/memory/memory_snapshot_store.h"

#include <memory>

#include "docket/memory/snapshot_store.h"
#include "providers/memory/memory_database_access.h"

namespace docket::memory {
namespace detail {

SnapshotSaveOutcome MemorySnapshotStore::do_save(const StreamId& stream, const Snapshot& snapshot) {
  SnapshotSaveOutcome outcome = SnapshotSaveOutcome::kSaved;
  database_->write([&](State& state) {
    const auto found = state.snapshots.find(stream);
    if (found == state.snapshots.end()) {
      state.snapshots.emplace(stream, snapshot);
    } else if (found->second.version > snapshot.version) {
      outcome = SnapshotSaveOutcome::kKeptNewer;
    } else {
      found->second = snapshot;
    }
  });
  return outcome;
}

std::optional<Snapshot> MemorySnapshotStore::do_load(const StreamId& stream) {
  std::optional<Snapshot> snapshot;
  database_->read([&](const State& state) {
    if (const auto found = state.snapshots.find(stream); found != state.snapshots.end()) {
      snapshot = found->second;
    }
  });
  return snapshot;
}

}  // namespace detail

std::unique_ptr<SnapshotStore> open_snapshot_store(const Database& database) {
  return std::make_unique<detail::MemorySnapshotStore>(DatabaseAccess::state(database));
}

std::unique_ptr<SnapshotStore> open_snapshot_store(const Clock& clock) {
  return open_snapshot_store(open_database(clock));
}

}  // namespace docket::memory
