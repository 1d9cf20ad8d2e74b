// The claim inbox's documents: one per entry in the collection {prefix}docket_claim_inbox,
// its id the inbox entry id of src/keys for Firestore,
// inbox:{tenant}:{messageId}:{handlerType} with every term percent-encoded
// (docket/keys/inbox_key.h), and its fields the whole entry:
//
//   tenant, messageId, handlerType   stringValue   (on every write: a re-key of the
//                                                   entries can recover each term)
//   status       stringValue     "received", "processing", "processed", "failed"
//   retryCount   integerValue    receivedAt, updatedAt   timestampValue
//   owner, claimId, lastError    stringValue or nullValue (owner and claimId, the
//                                claim's token, set while processing; a document
//                                written before claim ids existed has no claimId
//                                field, read as null)
//   leaseUntil, processedAt, nextAttemptAt               timestampValue or nullValue
//
// Every state change writes the whole document (claim_fields()), so no path leaves a
// field out.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLAIM_DOCUMENT_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLAIM_DOCUMENT_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "docket/inbox/claim_inbox_store.h"
#include "providers/firestore/firestore_documents.h"

namespace docket::firestore::detail::claim {

inline constexpr std::string_view kCollection = "docket_claim_inbox";

inline constexpr std::string_view kTenant = "tenant";
inline constexpr std::string_view kMessageId = "messageId";
inline constexpr std::string_view kHandlerType = "handlerType";
inline constexpr std::string_view kStatus = "status";
inline constexpr std::string_view kRetryCount = "retryCount";
inline constexpr std::string_view kReceivedAt = "receivedAt";
inline constexpr std::string_view kUpdatedAt = "updatedAt";
inline constexpr std::string_view kOwner = "owner";
inline constexpr std::string_view kClaimId = "claimId";
inline constexpr std::string_view kLeaseUntil = "leaseUntil";
inline constexpr std::string_view kProcessedAt = "processedAt";
inline constexpr std::string_view kLastError = "lastError";
inline constexpr std::string_view kNextAttemptAt = "nextAttemptAt";

// The whole document of `entry`.
nlohmann::json claim_fields(const ClaimEntry& entry);

// The entry a document holds. Throws InfrastructureError naming `store`, the document
// and the field when it is not a document claim_fields() wrote.
ClaimEntry claim_entry_of(const Document& document, std::string_view store);

}  // namespace docket::firestore::detail::claim

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLAIM_DOCUMENT_H_
