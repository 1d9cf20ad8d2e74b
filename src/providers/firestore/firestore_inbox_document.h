// The transactional inbox's documents: one per (tenant, consumer, message) processed, in
// the collection {prefix}docket_inbox_messages, its id the dedup id of src/keys for
// Firestore, inbox:{tenant}:{messageId}:{consumerId} with every term percent-encoded
// (kit::inbox_dedup_id; the consumer is what handles the message once, so it takes
// the handler type's place), and its fields, every one on every write:
//
//   tenant, messageId, handlerType (the consumer id), eventType   stringValue
//   occurredAt, processedAt                                        timestampValue
//   source, causationId, correlationId                  stringValue or nullValue
//
// so that a re-key of the documents can recover each term from the document itself.
// processedAt has Firestore's automatic single-field index: the retention purge's query
// needs no composite index.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_DOCUMENT_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_DOCUMENT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/inbox/inbox_store.h"

namespace docket::firestore::detail::inbox {

inline constexpr std::string_view kTenant = "tenant";
inline constexpr std::string_view kMessageId = "messageId";
inline constexpr std::string_view kHandlerType = "handlerType";
inline constexpr std::string_view kEventType = "eventType";
inline constexpr std::string_view kOccurredAt = "occurredAt";
inline constexpr std::string_view kProcessedAt = "processedAt";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kCausationId = "causationId";
inline constexpr std::string_view kCorrelationId = "correlationId";

// The dedup document's id, checked against Firestore's id rules for `collection`.
// Throws KeyTooLongError or InvalidKeyTermError (src/keys) for a key that cannot be
// composed.
std::string dedup_id(std::string_view collection, const DedupKey& key);

// The whole document of `record`, processed at `processed_at`.
nlohmann::json dedup_fields(const InboxRecord& record, Timestamp processed_at);

}  // namespace docket::firestore::detail::inbox

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_INBOX_DOCUMENT_H_
