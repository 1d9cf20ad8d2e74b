// Recognising keys written by releases that stored streams and sagas without a
// tenant segment. docket never writes these shapes; stores use these predicates to
// refuse acting on an absence they cannot vouch for (see DESIGN.md, Guards).
//
// A stored key is "legacy untenanted" when it is not a key the current composer
// could have written for that provider and record kind. Legacy shapes were:
//   streams  Cosmos DB, DynamoDB  {aggregateType}:{aggregateId}
//            MongoDB              {aggregateId}
//            Firestore            {aggregateType}:{aggregateId}:{version}
//   sagas    Cosmos DB, MongoDB   {sagaId}
//            DynamoDB             SAGA#{sagaId}
//            Firestore            {sagaId}_{sagaType}
// A legacy key whose raw terms happen to spell a well-formed current key (a legacy
// aggregate type "t" with an id like "acme:Order:1") cannot be told apart; the
// re-key procedure in docs/keys.md says how to check for it.
//
// Thread-safety: pure functions.
#ifndef DOCKET_KEYS_LEGACY_H_
#define DOCKET_KEYS_LEGACY_H_

#include <string_view>

#include "docket/keys/provider.h"

namespace docket::keys {

// Elasticsearch and Redis store no streams or sagas: asking about them throws
// InvalidInputError rather than calling every key legacy.
//
// `stored_key` is the stream key (Cosmos DB, DynamoDB, MongoDB) or the event
// document id (Firestore).
bool is_legacy_untenanted_stream_key(Provider provider, std::string_view stored_key);

// `stored_key` is the saga id (Cosmos DB), partition key (DynamoDB), _id (MongoDB) or
// document id (Firestore).
bool is_legacy_untenanted_saga_key(Provider provider, std::string_view stored_key);

}  // namespace docket::keys

#endif  // DOCKET_KEYS_LEGACY_H_
