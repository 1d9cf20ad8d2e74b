// The snapshot store SPI: the latest snapshot of each stream, keyed like the stream by
// (tenant, aggregate type, aggregate id).
//
// A snapshot is an optimisation, never the truth: the events are. A snapshot that is
// missing, or that the reader cannot decode, is rebuilt from the stream (see
// docket/eventsourcing/aggregate.h), so deleting snapshots is always safe.
//
// Invariants every provider keeps (tests/conformance/eventsourcing checks them):
//  - one snapshot per stream, and it never regresses: a save at a version lower than
//    the stored one changes nothing (kKeptNewer); a save at the same or a higher
//    version replaces it (same version: a re-encoding, e.g. after a state format
//    change);
//  - each tenant has its own snapshot for the same aggregate id.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_EVENTSOURCING_SNAPSHOT_STORE_H_
#define DOCKET_EVENTSOURCING_SNAPSHOT_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/core/store_capabilities.h"
#include "docket/eventsourcing/stream_id.h"

namespace docket {

struct Snapshot {
  std::int64_t version = 0;  // the version of the last event folded into the state
  std::string payload{};     // the encoded state, opaque to docket
  Timestamp taken_at{};      // the store's clock at save

  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

enum class SnapshotSaveOutcome {
  kSaved,      // stored; it is now the stream's snapshot
  kKeptNewer,  // the stored snapshot has a higher version and was kept unchanged
};

class SnapshotStore {
 public:
  virtual ~SnapshotStore() = default;
  SnapshotStore(const SnapshotStore&) = delete;
  SnapshotStore& operator=(const SnapshotStore&) = delete;

  virtual std::string_view provider_name() const noexcept = 0;

  // What this store can do; see docket/core/store_capabilities.h. A snapshot is saved on its
  // own: joins_handler_writes and interactive_transactions are false, feed is kNone;
  // shared_between_processes and the commit limits are those of the provider's stores.
  virtual StoreCapabilities capabilities() const noexcept = 0;

  // Saves the state of `stream` at `version` (>= 0; InvalidInputError otherwise).
  SnapshotSaveOutcome save(const StreamId& stream, std::int64_t version, std::string_view payload);

  // The stream's snapshot, or nullopt.
  std::optional<Snapshot> load(const StreamId& stream);

 protected:
  explicit SnapshotStore(const Clock& clock) noexcept : clock_(clock) {}

  // Atomically: keep the stored snapshot if its version is higher, else store this.
  virtual SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) = 0;
  virtual std::optional<Snapshot> do_load(const StreamId& stream) = 0;

 private:
  const Clock& clock_;
};

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_SNAPSHOT_STORE_H_
