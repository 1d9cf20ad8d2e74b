// The Redis SnapshotStore: a stream's latest snapshot as a hash P snapshot:{stream key}
// (redis_keyspace.h; the stream key carries the tenant, so each tenant has its own)
// with the fields version, payload and taken_at (Unix microseconds). A save is one
// script run, which keeps a stored snapshot of a higher version (kKeptNewer) and
// otherwise writes all three fields, nothing interleaved; a load is one HGETALL.
//
// Capabilities: those of the provider's stores, saved on its own (no transaction to
// join), no feed.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_SNAPSHOT_STORE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_SNAPSHOT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/eventsourcing/snapshot_store.h"

namespace docket::redis::detail {

// Throws ConfigurationError for a URL parse_url refuses; connects on first use.
std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_SNAPSHOT_STORE_H_
