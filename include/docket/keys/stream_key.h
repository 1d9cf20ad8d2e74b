// Event stream and snapshot keys on document stores. The tenant segment is always
// present: each tenant has its own stream, its own version sequence and its own
// snapshot for the same aggregate id.
//
// Event streams (each term escaped by the provider's term codec, see term_codec.h):
//
//   Cosmos DB  streamId, also the partition key  t:{tenant}:{aggregateType}:{aggregateId}
//   DynamoDB   partition key (sort key: version) t:{tenant}:{aggregateType}:{aggregateId}
//   MongoDB    streamId                          t:{tenant}:{aggregateId}
//   Firestore  document id, one per event        t:{tenant}:{aggregateType}:{aggregateId}:{version}
//
// Snapshots (latest per stream):
//
//   Cosmos DB  item id (partition key: the same) t:{tenant}:{aggregateType}:{aggregateId}
//   DynamoDB   partition key                     SNAPSHOT#t:{tenant}:{aggregateType}:{aggregateId}
//   MongoDB    _id                               t:{tenant}:{aggregateType}:{aggregateId}
//   Firestore  document id                       t:{tenant}:{aggregateType}:{aggregateId}
//
// Elasticsearch and Redis have no stream or snapshot shape here; asking for one is an
// InvalidInputError.
//
// Thread-safety: pure functions.
#ifndef DOCKET_KEYS_STREAM_KEY_H_
#define DOCKET_KEYS_STREAM_KEY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "docket/keys/key.h"
#include "docket/keys/provider.h"

namespace docket::keys {

struct StreamTerms {
  std::string tenant;
  std::string aggregate_type;  // empty after parsing a MongoDB stream id, which omits it
  std::string aggregate_id;

  friend bool operator==(const StreamTerms&, const StreamTerms&) = default;
};

// Terms a shape does not hold (the aggregate type of a MongoDB stream id) are not
// inspected. The parse_* functions return nullopt for a provider without the shape and
// for any key the matching compose_* could not have written (only canonical keys).
//
// The stream key on Cosmos DB, DynamoDB or MongoDB. Firestore has no stream key (each
// event is its own document: use compose_event_document_id). Throws
// InvalidKeyTermError, KeyTooLongError, or InvalidInputError for a provider without
// the shape.
Key compose_stream_key(Provider provider, const StreamTerms& terms);
std::optional<StreamTerms> parse_stream_key(Provider provider, std::string_view key);

// A Firestore event document id (version >= 0). Other providers throw
// InvalidInputError: their version lives in a sort key or field, not in the key.
Key compose_event_document_id(Provider provider, const StreamTerms& terms, std::int64_t version);

struct EventDocumentTerms {
  StreamTerms stream;
  std::int64_t version;

  friend bool operator==(const EventDocumentTerms&, const EventDocumentTerms&) = default;
};
std::optional<EventDocumentTerms> parse_event_document_id(Provider provider, std::string_view id);

// The snapshot key on Cosmos DB, DynamoDB, MongoDB or Firestore.
Key compose_snapshot_key(Provider provider, const StreamTerms& terms);
std::optional<StreamTerms> parse_snapshot_key(Provider provider, std::string_view key);

}  // namespace docket::keys

#endif  // DOCKET_KEYS_STREAM_KEY_H_
