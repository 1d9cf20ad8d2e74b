// The Redis CheckpointStore: each (tenant, consumer) a field of two hashes (position,
// updated_at) and a member of a sorted set scored 0 that orders them for the listing
// (redis_keyspace.h).
//
// set writes the three in one MULTI/EXEC, sent in one round trip: applied together,
// durable as the server's appendfsync makes any write (docs/redis.md), and safe to send
// twice (the same values written twice are written once). get is one HGET. list pages
// through the sorted set in byte order of the escaped terms (ZRANGEBYLEX, one tenant's
// range when the request names a tenant), then reads the page's positions and times in
// one round trip.
//
// Thread-safety: every member may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_CHECKPOINT_STORE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_CHECKPOINT_STORE_H_

#include <memory>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/checkpoint_store.h"
#include "providers/redis/redis_pool.h"

namespace docket::redis::detail {

// Throws ConfigurationError for a URL parse_url refuses; connects on first use.
// `clock` stamps updated_at and must outlive the store.
std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock);

// The number of checkpoints stored under `pool`'s URL (for tests and tools).
long long count_checkpoints(Pool& pool);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_CHECKPOINT_STORE_H_
