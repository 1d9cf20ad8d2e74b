// Internal: each provider's byte limit for each field docket composes a key into, and
// the error raised when a key exceeds one. The sources are cited in limits.cc's
// comments and in docs/keys.md.
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_SRC_KEYS_LIMITS_H_
#define DOCKET_SRC_KEYS_LIMITS_H_

#include <cstddef>
#include <span>
#include <string_view>

#include "docket/keys/provider.h"

namespace docket::keys::detail {

struct FieldLimit {
  std::string_view field;  // where the key is stored, as named in messages
  std::size_t bytes;       // the largest key that field accepts
};

// Firestore: a document id is at most 1,500 bytes (Firestore quotas, "Collections,
// documents, and fields").
inline constexpr FieldLimit kFirestoreDocumentId{"document id", 1500};

// Elasticsearch: "_id is limited to 512 bytes in size and larger values will be
// rejected" (mapping reference, _id field).
inline constexpr FieldLimit kElasticsearchId{"_id", 512};

// Cosmos DB: an item id is at most 1,023 bytes; a partition key value at most 2,048
// bytes on containers with large partition keys (the default since May 2019; older
// containers hash only the first 101 bytes, which affects distribution, not identity).
inline constexpr FieldLimit kCosmosItemId{"item id", 1023};
inline constexpr FieldLimit kCosmosSnapshotId{"item id (partition key)", 1023};
inline constexpr FieldLimit kCosmosStreamId{"streamId (partition key)", 2048};
inline constexpr FieldLimit kCosmosPartitionKey{"partition key", 2048};

// MongoDB: since 4.2 (feature compatibility 4.2) an index key has no size limit and a
// document may be 16 MiB. Before that an index entry, structural overhead included,
// had to stay under 1,024 bytes, which for a single string field leaves about 1,012
// bytes. docket keeps every MongoDB key at or under 1,000 bytes so that it indexes on
// any server version and in compound indexes (streamId with version) too: the
// conservative choice, since a key refused here can be shortened, while an index
// entry refused by an old server fails the write.
inline constexpr FieldLimit kMongoId{"_id", 1000};
inline constexpr FieldLimit kMongoStreamId{"streamId", 1000};

// Redis: a key is a string, at most 512 MiB (proto-max-bulk-len's default).
inline constexpr FieldLimit kRedisKey{"key", std::size_t{512} * 1024 * 1024};

// DynamoDB: a partition key value is 1 to 2,048 bytes, a sort key value 1 to 1,024
// bytes (DynamoDB constraints, "Partition keys and sort keys").
inline constexpr FieldLimit kDynamoPartitionKey{"partition key", 2048};
inline constexpr FieldLimit kDynamoSortKey{"sort key", 1024};

// One term of a key as it was written into the key, for the error message.
struct EncodedTermSize {
  std::string_view term;  // "tenant", "message id", ...
  std::size_t bytes;      // its size after escaping
};

// Throws KeyTooLongError: names the provider, the key, the field, the limit, the actual
// size, each term's encoded size and the term to shorten (the longest), and says why
// docket does not truncate.
[[noreturn]] void throw_key_too_long(Provider provider, std::string_view what,
                                     const FieldLimit& limit, std::size_t actual_bytes,
                                     std::span<const EncodedTermSize> terms);

}  // namespace docket::keys::detail

#endif  // DOCKET_SRC_KEYS_LIMITS_H_
