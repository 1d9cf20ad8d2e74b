// The snapshot store's front end: validates before a provider sees the call.
#include "docket/eventsourcing/snapshot_store.h"

#include <string>

#include "docket/core/error.h"

namespace docket {

SnapshotSaveOutcome SnapshotStore::save(const StreamId& stream, std::int64_t version,
                                        std::string_view payload) {
  if (version < 0) {
    throw InvalidInputError("snapshot of " + stream.describe() + " at version " +
                            std::to_string(version) +
                            ": a snapshot holds the state after an event, and event versions "
                            "start at 0. Nothing was saved.");
  }
  return do_save(
      stream,
      Snapshot{.version = version, .payload = std::string(payload), .taken_at = clock_.now()});
}

std::optional<Snapshot> SnapshotStore::load(const StreamId& stream) {
  return do_load(stream);
}

}  // namespace docket
