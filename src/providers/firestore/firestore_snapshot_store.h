// The Firestore SnapshotStore: one document per stream in {prefix}docket_snapshots, its
// id the snapshot key of src/keys for Firestore, t:{tenant}:{aggregateType}:{aggregateId}
// with each term percent-encoded (the tenant is part of it); fields version
// (integerValue), payload (bytesValue, byte for byte) and takenAt (timestampValue).
//
// save reads the stored snapshot and, unless its version is higher (kKeptNewer, nothing
// written), commits the whole document under the precondition that it is unchanged
// since the read (`exists: false`, or its updateTime); a refused commit means another
// save came in between, and the save starts over from a new read. So a snapshot never
// regresses. load is one batchGet. No legacy guard: snapshot keys carried the tenant
// before stream keys did, and a snapshot that misses is rebuilt from its stream.
//
// Capabilities: those of the provider's stores for a snapshot store
// (kit::snapshot_store_capabilities): no transaction, no feed, shared between
// processes; one document per save, so no commit limit.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SNAPSHOT_STORE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SNAPSHOT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/eventsourcing/snapshot_store.h"

namespace docket::firestore::detail {

inline constexpr std::string_view kSnapshotCollectionBase = "docket_snapshots";

// Throws ConfigurationError for a URL parse_store_url refuses or a missing access
// token; sends nothing. `clock` stamps takenAt and must outlive the store.
std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SNAPSHOT_STORE_H_
