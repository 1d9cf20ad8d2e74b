// The saga store's documents: one per saga in {prefix}docket_sagas, its id the saga key
// of src/keys for Firestore, t:{tenant}:{sagaId}_{sagaType} with every term
// percent-encoded and '_' escaped in the saga id (kit::saga_key), and its fields:
//
//   tenant, sagaType, sagaId   stringValue     (the purge's tenant filter; a re-key can
//                                                recover each term)
//   version      integerValue    state  bytesValue (byte for byte)
//   status       stringValue     "active" or "completed"
//   startedAt, updatedAt         timestampValue
//   completedAt  timestampValue, only once completed: the purge's range filter, which
//                an active saga (without the field) never matches
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_DOCUMENT_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_DOCUMENT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_store.h"
#include "providers/firestore/firestore_documents.h"

namespace docket::firestore::detail::saga {

inline constexpr std::string_view kCollection = "docket_sagas";

inline constexpr std::string_view kTenant = "tenant";
inline constexpr std::string_view kCompletedAt = "completedAt";
inline constexpr std::string_view kSagaType = "sagaType";
inline constexpr std::string_view kSagaId = "sagaId";
inline constexpr std::string_view kStatus = "status";
inline constexpr std::string_view kUpdatedAt = "updatedAt";

// The document id of `saga` (src/keys).
std::string saga_document_id(const SagaId& saga);

// The whole document of `record` for `saga`.
nlohmann::json saga_fields(const SagaId& saga, const SagaRecord& record);

// The record a document holds. Throws InfrastructureError naming `store`, the document
// and the field when it is not a document saga_fields() wrote.
SagaRecord saga_record_of(const Document& document, std::string_view store);

// The value of the status field for `status`: what a listing's status filter compares.
nlohmann::json saga_status_value(SagaStatus status);

// What the listing shows of a document (everything but the state): its identity from
// the tenant, sagaType and sagaId fields, version, status and times. Throws
// InfrastructureError as saga_record_of does.
SagaSummary saga_summary_of(const Document& document, std::string_view store);

}  // namespace docket::firestore::detail::saga

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SAGA_DOCUMENT_H_
