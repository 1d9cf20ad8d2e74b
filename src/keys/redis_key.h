// The Redis provider's key terms: every Redis key docket stores that carries a term
// (beyond the inbox ids of inbox_key.h) is composed here, escaped by Redis's term codec
// (only '%' and ':', term_codec.h), and the provider places it under its prefix and a
// constant namespace of its own (src/providers/redis/redis_keyspace.h). Every shape
// carries the tenant (the seed tenant-in-store-keys: Redis keys already carry it):
//
//   checkpoint field     {tenant}:{consumerId}   (its tenant's range: {tenant}:)
//   outbox ordering key  t:{tenant}:{orderingKey}
//   tenant               t:{tenant}                      (the event feed of one tenant)
//   event stream         t:{tenant}:{aggregateType}:{aggregateId}
//   saga                 t:{tenant}:{sagaType}:{sagaId}
//
// The checkpoint field keeps the form the checkpoint store wrote before it moved here
// (no "t:" marker: a hash field, not a key, so it needs none). A key is at most 512 MiB
// (Redis's limit); every term non-empty, valid UTF-8.
//
// Internal to docket (src/keys). Thread-safety: pure functions.
#ifndef DOCKET_SRC_KEYS_REDIS_KEY_H_
#define DOCKET_SRC_KEYS_REDIS_KEY_H_

#include <optional>
#include <string_view>

#include "docket/keys/checkpoint_key.h"
#include "docket/keys/key.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"

namespace docket::keys {

// Each throws InvalidKeyTermError naming the term when one is empty or not valid UTF-8,
// and KeyTooLongError when the key would not fit.
Key compose_redis_checkpoint_field(const CheckpointTerms& terms);
// The exact inverse: nullopt for a field compose_redis_checkpoint_field could not have
// written (only canonical fields parse).
std::optional<CheckpointTerms> parse_redis_checkpoint_field(std::string_view field);
// What every checkpoint field of `tenant` begins with, "{tenant}:": the range a
// listing of one tenant reads.
Key compose_redis_checkpoint_tenant_prefix(std::string_view tenant);

Key compose_redis_ordering_key(std::string_view tenant, std::string_view ordering_key);
Key compose_redis_tenant_key(std::string_view tenant);
Key compose_redis_stream_key(const StreamTerms& terms);
Key compose_redis_saga_key(const SagaTerms& terms);

}  // namespace docket::keys

#endif  // DOCKET_SRC_KEYS_REDIS_KEY_H_
