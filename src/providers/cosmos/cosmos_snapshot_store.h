// The Cosmos DB SnapshotStore: the latest snapshot of each stream, one item in
// {prefix}docket_snapshots partitioned by its id, the snapshot key of src/keys for Cosmos
// DB, t:{tenant}:{aggregateType}:{aggregateId} (each term escaped; at most 1,023 bytes,
// the id limit), so each tenant has its own snapshot and every operation is a point
// operation. Its fields:
//
//   id              the snapshot key (also the partition key)
//   tenant, aggregateType, aggregateId   the stream's terms, readable
//   version         number: the version of the last event folded into the state
//   payload         the state's bytes, base64
//   takenAt         Unix microseconds
//
// save reads the item and, unless it holds a higher version (kKeptNewer), replaces it
// under the etag read (If-Match), or creates it where there is none; a write refused
// because another save got there first (412, or 409 on a create) reads again and decides
// anew, so a snapshot never regresses. An item over kMaxItemBytes is refused before
// anything is sent. Snapshots have no legacy-key guard: their keys carried the tenant
// before events and sagas did, and a snapshot that misses is rebuilt from its stream.
//
// Capabilities: a snapshot is saved on its own (joins nothing, no feed); shared between
// processes; one item per snapshot, at most kMaxItemBytes.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_SNAPSHOT_STORE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_SNAPSHOT_STORE_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "providers/cosmos/cosmos_client.h"

namespace docket::cosmos::detail {

namespace snapshot {
inline constexpr std::string_view kContainer = "docket_snapshots";
inline constexpr std::string_view kPartitionKeyPath = "/id";
}  // namespace snapshot

class CosmosSnapshotStore final : public SnapshotStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses; sends nothing.
  CosmosSnapshotStore(std::string_view url, const Clock& clock);

  std::string_view provider_name() const noexcept override { return "cosmos"; }
  StoreCapabilities capabilities() const noexcept override;

 private:
  SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) override;
  std::optional<Snapshot> do_load(const StreamId& stream) override;

  Client client_;
  std::string container_;
  std::string store_;  // for errors
};

// Throws what the constructor throws.
std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_SNAPSHOT_STORE_H_
