// Where docket's Redis stores keep what they store, under the URL's prefix P (default
// "docket:"): the one place that lays out the keyspace. Keys that carry terms are
// composed by src/keys (through providers/kit/key_bridge.h) and placed under a
// constant namespace here; nothing else in the provider builds a key.
//
//   P dedup:{inbox dedup id}     hash: one transactional inbox record (tenant,
//                                consumer_id, message_id, event_type, occurred_at,
//                                processed_at, source, causation_id, correlation_id);
//                                the id is src/keys' Redis inbox id with the consumer in
//                                the handler type's place: inbox:{tenant}:{message}:{consumer}
//   P dedup-index                sorted set: each record's id scored by processed_at
//                                (Unix microseconds), what the purge reads
//   P checkpoint:positions       hash: field {tenant}:{consumer} (each term escaped by
//                                Redis's term codec, keys::escape_reserved) -> position
//   P checkpoint:times           hash: the same field -> updated_at (Unix microseconds)
//   P checkpoint:index           sorted set, every score 0: the fields in byte order,
//                                what the listing pages through (ZRANGEBYLEX)
//   P inbox:{tenant}:{message}:{handler type}
//                                hash: one claim inbox entry (the seed's Redis entry key,
//                                composed by src/keys), its fields named as
//                                kit::StoredClaimEntry's
//   P claim:keys                 sorted set, every score 0: the entry ids in byte order
//                                (the listing's key order)
//   P claim:processed            sorted set: processed entries' ids by processed_at
//   P claim:failed               sorted set: failed entries' ids by next_attempt_at
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_KEYSPACE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_KEYSPACE_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/inbox/claim_key.h"
#include "docket/inbox/inbox_store.h"
#include "providers/redis/redis_url.h"

namespace docket::redis::detail {

inline constexpr std::string_view kDedupNamespace = "dedup:";
inline constexpr std::string_view kDedupIndex = "dedup-index";
inline constexpr std::string_view kCheckpointPositions = "checkpoint:positions";
inline constexpr std::string_view kCheckpointTimes = "checkpoint:times";
inline constexpr std::string_view kCheckpointIndex = "checkpoint:index";
inline constexpr std::string_view kClaimKeys = "claim:keys";
inline constexpr std::string_view kClaimProcessed = "claim:processed";
inline constexpr std::string_view kClaimFailed = "claim:failed";

// The dedup record's id (its member in the index). Throws as src/keys does
// (KeyTooLongError, InvalidKeyTermError).
std::string dedup_id(const DedupKey& key);
// The key of the record whose id is `id`: P dedup:{id}.
std::string dedup_key(const RedisUrl& url, std::string_view id);

// The claim inbox entry's id (its member in the indexes), and its key: P {id}.
std::string claim_entry_id(const ClaimKey& key);
std::string claim_entry_key(const RedisUrl& url, std::string_view id);

// The checkpoint field of (tenant, consumer), and its inverse (nullopt for a field
// docket did not write).
std::string checkpoint_field(std::string_view tenant, std::string_view consumer_id);
struct CheckpointTermsView {
  std::string tenant;
  std::string consumer_id;
};
std::optional<CheckpointTermsView> parse_checkpoint_field(std::string_view field);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_KEYSPACE_H_
