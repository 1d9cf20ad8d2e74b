// The DynamoDB SnapshotStore: one item per stream in <table_prefix>docket_snapshots,
// partition key id (S) = kit::snapshot_key (SNAPSHOT#t:{tenant}:{type}:{id}: the
// tenant is part of it), no sort key; version (N), payload (B, byte for byte) and
// taken_at (N, Unix microseconds) beside it.
//
// save is one PutItem conditional on attribute_not_exists(id) OR version <= the new
// version, so a snapshot never regresses: a failed condition is kKeptNewer, and the
// item is unchanged. Replay::kSafe: a resend of an applied save meets its own item at
// the same version, which the condition admits, and puts the same item again. load is
// a strongly consistent GetItem. No legacy guard: snapshot keys carried the tenant
// before stream keys did, and a snapshot that misses is rebuilt from its stream.
//
// Capabilities: those of the provider's stores for a snapshot store
// (kit::snapshot_store_capabilities): no transaction, no feed, shared between
// processes; one item per save, so no commit limit.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SNAPSHOT_STORE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SNAPSHOT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/eventsourcing/snapshot_store.h"

namespace docket::dynamodb::detail {

inline constexpr std::string_view kSnapshotTableBase = "docket_snapshots";

// Throws ConfigurationError for a URL parse_store_url refuses or missing AWS
// credentials; sends nothing. `clock` stamps taken_at and must outlive the store.
std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SNAPSHOT_STORE_H_
