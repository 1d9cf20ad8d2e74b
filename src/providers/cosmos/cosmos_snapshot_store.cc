#include "providers/cosmos/cosmos_snapshot_store.h"

#include <utility>

#include "docket/core/error.h"
#include "docket/keys/provider.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_limits.h"
#include "providers/kit/base64.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {
namespace {

// A save overtaken by concurrent saves of the same snapshot reads again, at most this
// often.
constexpr int kMaxSaveAttempts = 25;

nlohmann::json snapshot_item(const std::string& id, const StreamId& stream,
                             const Snapshot& snapshot) {
  return {{"id", id},
          {"tenant", stream.tenant().value()},
          {"aggregateType", stream.aggregate_type()},
          {"aggregateId", stream.aggregate_id()},
          {"version", snapshot.version},
          {"payload", kit::base64_encode(snapshot.payload)},
          {"takenAt", kit::to_micros(snapshot.taken_at)}};
}

}  // namespace

CosmosSnapshotStore::CosmosSnapshotStore(std::string_view url, const Clock& clock)
    : SnapshotStore(clock),
      client_(parse_store_url(url)),
      container_(client_.url().container(snapshot::kContainer)),
      store_("Cosmos DB snapshot store (container '" + container_ + "' at " +
             client_.url().printable + ")") {}

StoreCapabilities CosmosSnapshotStore::capabilities() const noexcept {
  return kit::snapshot_store_capabilities({.joins_handler_writes = false,
                                           .interactive_transactions = false,
                                           .max_writes_per_commit = 0,
                                           .max_bytes_per_commit = 0,
                                           .max_bytes_per_record = kMaxItemBytes,
                                           .feed = FeedKind::kNone,
                                           .server_side_expiry = false,
                                           .shared_between_processes = true,
                                           .concurrent_writers = true,
                                           .lease_clock = LeaseClock::kClaimer});
}

SnapshotSaveOutcome CosmosSnapshotStore::do_save(const StreamId& stream, const Snapshot& snapshot) {
  const std::string id = kit::snapshot_key(keys::Provider::kCosmosDb, stream).value;
  const nlohmann::json item = snapshot_item(id, stream, snapshot);
  check_item_size(item, store_);  // before anything is sent
  client_.ensure_container(container_, snapshot::kPartitionKeyPath);
  const ItemAddress address{.container = container_, .id = id, .partition_key = id};
  for (int attempt = 0; attempt < kMaxSaveAttempts; ++attempt) {
    const std::optional<ReadItem> current = read_item(client_, address);
    if (!current) {
      if (create_item(client_, address, item)) {
        return SnapshotSaveOutcome::kSaved;
      }
      continue;  // another save created it first: decide against it
    }
    if (ItemFields(current->body, store_).integer("version") > snapshot.version) {
      return SnapshotSaveOutcome::kKeptNewer;
    }
    if (replace_item(client_, address, item, current->etag)) {
      return SnapshotSaveOutcome::kSaved;
    }
  }
  throw InfrastructureError(store_ + ": a save of the snapshot of " + stream.describe() +
                            " was overtaken by " + std::to_string(kMaxSaveAttempts) +
                            " concurrent saves in a row and was not applied; retry later");
}

std::optional<Snapshot> CosmosSnapshotStore::do_load(const StreamId& stream) {
  const std::string id = kit::snapshot_key(keys::Provider::kCosmosDb, stream).value;
  client_.ensure_container(container_, snapshot::kPartitionKeyPath);
  const std::optional<ReadItem> read =
      read_item(client_, {.container = container_, .id = id, .partition_key = id});
  if (!read) {
    return std::nullopt;
  }
  const ItemFields fields(read->body, store_);
  return Snapshot{.version = fields.integer("version"),
                  .payload = fields.bytes("payload"),
                  .taken_at = fields.time("takenAt")};
}

std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock) {
  return std::make_unique<CosmosSnapshotStore>(url, clock);
}

}  // namespace docket::cosmos::detail
