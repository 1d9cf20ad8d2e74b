#include "docket/keys/legacy.h"

#include "docket/core/error.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"

namespace docket::keys {

// "Legacy untenanted" is defined as the complement of the current shape: a stored key
// the current composer could not have written for this provider and record kind. Any
// such key is unaddressable by this release, whatever older shape it follows, so it is
// exactly what the stores' guards must refuse to act past.

bool is_legacy_untenanted_stream_key(Provider provider, std::string_view stored_key) {
  switch (provider) {
    case Provider::kFirestore:
      return !parse_event_document_id(provider, stored_key).has_value();
    case Provider::kCosmosDb:
    case Provider::kDynamoDb:
    case Provider::kMongoDb:
      return !parse_stream_key(provider, stored_key).has_value();
    default:
      throw InvalidInputError(std::string(provider_display_name(provider)) +
                              " stores no event streams in docket, so it has no legacy stream "
                              "keys; ask for Cosmos DB, DynamoDB, MongoDB or Firestore.");
  }
}

bool is_legacy_untenanted_saga_key(Provider provider, std::string_view stored_key) {
  switch (provider) {
    case Provider::kFirestore:
    case Provider::kCosmosDb:
    case Provider::kDynamoDb:
    case Provider::kMongoDb:
      return !parse_saga_key(provider, stored_key).has_value();
    default:
      throw InvalidInputError(std::string(provider_display_name(provider)) +
                              " stores no sagas in docket, so it has no legacy saga keys; ask "
                              "for Cosmos DB, DynamoDB, MongoDB or Firestore.");
  }
}

}  // namespace docket::keys
