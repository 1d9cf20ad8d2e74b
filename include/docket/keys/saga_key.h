// Saga keys on document stores, always carrying the tenant.
//
//   Cosmos DB  item id        t:{tenant}:{sagaId}           partition key: the saga type
//   DynamoDB   partition key  SAGA#t:{tenant}:{sagaId}      sort key: the saga type
//   MongoDB    _id            t:{tenant}:{sagaId}
//   Firestore  document id    t:{tenant}:{sagaId}_{sagaType}
//
// Terms are escaped by the provider's term codec (see term_codec.h). The Firestore
// shape joins saga id and saga type with '_', which percent-encoding keeps; so there
// the saga id also escapes '_' (as %5F) and the saga type is everything after the
// first raw '_'. For a saga id without '_' the id is byte-identical to the shape.
//
// Elasticsearch and Redis have no saga shape here; asking for one is an
// InvalidInputError.
//
// Thread-safety: pure functions.
#ifndef DOCKET_KEYS_SAGA_KEY_H_
#define DOCKET_KEYS_SAGA_KEY_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/keys/key.h"
#include "docket/keys/provider.h"

namespace docket::keys {

struct SagaTerms {
  std::string tenant;
  std::string saga_type;  // empty after parsing a key that does not hold it
  std::string saga_id;

  friend bool operator==(const SagaTerms&, const SagaTerms&) = default;
};

// The saga type is part of the key only on Firestore; elsewhere it is not inspected
// (and is empty after parsing). Throws InvalidKeyTermError, KeyTooLongError, or
// InvalidInputError for a provider without the shape.
Key compose_saga_key(Provider provider, const SagaTerms& terms);

// The exact inverse of compose_saga_key(); nullopt for a key it could not have written
// (only canonical keys parse) and for a provider without the shape.
std::optional<SagaTerms> parse_saga_key(Provider provider, std::string_view key);

// Where the saga type lives beside the key: the Cosmos DB partition key or the
// DynamoDB sort key, the saga type verbatim (validated, limit-checked). Other
// providers throw InvalidInputError: their saga type is inside the key or a field.
Key compose_saga_type_key(Provider provider, const SagaTerms& terms);

}  // namespace docket::keys

#endif  // DOCKET_KEYS_SAGA_KEY_H_
