// The bridge from docket's identities to the key shapes of src/keys: a document
// provider composes every key it stores from the validated identity its SPI hands it
// (a ClaimKey, a StreamId, a SagaId and a version), through these, and never handles
// the raw terms (tenant, message id, aggregate type, ...) itself. The shapes, escapes
// and limits are those of docket/keys/*.h (docs/keys.md); nothing is composed here.
//
// Each function is src/keys' composer over the identity's terms, so it refuses what
// keys refuses: KeyTooLongError naming the provider, the limit and the term to shorten
// when the key does not fit, and InvalidInputError for a provider without the shape
// (Elasticsearch and Redis have no stream, snapshot or saga key; only Firestore keys
// an event by its version). The identities' own checks have run already, so a term is
// never empty or malformed here.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_KEY_BRIDGE_H_
#define DOCKET_PROVIDERS_KIT_KEY_BRIDGE_H_

#include <cstdint>

#include "docket/eventsourcing/stream_id.h"
#include "docket/inbox/claim_key.h"
#include "docket/inbox/inbox_store.h"
#include "docket/keys/key.h"
#include "docket/keys/provider.h"
#include "docket/sagas/saga_id.h"

namespace docket::kit {

// The claim-inbox entry id: {tenant}:{messageId}:{handlerType} (Firestore and Redis
// prefix "inbox:").
keys::Key inbox_entry_id(keys::Provider provider, const ClaimKey& key);

// The transactional inbox's dedup id: the entry id above with the consumer id in the
// handler type's place ({tenant}:{messageId}:{consumerId}), the consumer being what
// handles the message once.
keys::Key inbox_dedup_id(keys::Provider provider, const DedupKey& key);

// The event stream key (Cosmos DB, DynamoDB, MongoDB): t:{tenant}:{type}:{id}.
keys::Key stream_key(keys::Provider provider, const StreamId& stream);

// One event's document id (Firestore): t:{tenant}:{type}:{id}:{version}. Throws
// InvalidInputError for a negative version.
keys::Key event_document_id(keys::Provider provider, const StreamId& stream, std::int64_t version);

// The stream's snapshot key (Cosmos DB, DynamoDB, MongoDB, Firestore).
keys::Key snapshot_key(keys::Provider provider, const StreamId& stream);

// The saga key (Cosmos DB, DynamoDB, MongoDB, Firestore), and where the saga type
// lives beside it (the Cosmos DB partition key, the DynamoDB sort key).
keys::Key saga_key(keys::Provider provider, const SagaId& saga);
keys::Key saga_type_key(keys::Provider provider, const SagaId& saga);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_KEY_BRIDGE_H_
