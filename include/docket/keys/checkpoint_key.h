// Consumer checkpoint keys on document stores that address a document by one id,
// always carrying the tenant:
//
//   Firestore  document id   t:{tenant}:{consumerId}    full percent-encoding
//   Cosmos DB  item id       t:{tenant}:{consumerId}    Cosmos DB's escape (also '/' '\'
//                                                       '?' '#', space, controls), at most
//                                                       1,023 bytes; the id is also the
//                                                       item's partition key
//
// (DynamoDB keys a checkpoint by two attributes, the tenant and the consumer id, each
// the term itself, so it composes nothing.) Terms are escaped by the provider's term
// codec (term_codec.h), so a consumer id with ':' or '/' stays one segment of one
// document (or item: Cosmos DB forbids '/' in an id); "t:" keeps the id clear of
// Firestore's reserved __.*__ form.
//
// Other providers have no checkpoint shape here; asking for one is an
// InvalidInputError.
//
// Thread-safety: pure functions.
#ifndef DOCKET_KEYS_CHECKPOINT_KEY_H_
#define DOCKET_KEYS_CHECKPOINT_KEY_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/keys/key.h"
#include "docket/keys/provider.h"

namespace docket::keys {

struct CheckpointTerms {
  std::string tenant;
  std::string consumer_id;

  friend bool operator==(const CheckpointTerms&, const CheckpointTerms&) = default;
};

// Throws InvalidKeyTermError naming the term when one is empty or not valid UTF-8,
// KeyTooLongError when the key does not fit, and InvalidInputError for a provider
// without the shape.
Key compose_checkpoint_key(Provider provider, const CheckpointTerms& terms);

// The exact inverse; nullopt for a key compose_checkpoint_key() could not have written
// (only canonical keys parse) and for a provider without the shape.
std::optional<CheckpointTerms> parse_checkpoint_key(Provider provider, std::string_view key);

}  // namespace docket::keys

#endif  // DOCKET_KEYS_CHECKPOINT_KEY_H_
