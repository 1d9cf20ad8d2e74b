// The Cosmos DB saga store's items: one per saga in the container {prefix}docket_sagas,
// partitioned by the property sagaType (the saga type verbatim, at most 2,048 bytes), its
// id the saga key of src/keys for Cosmos DB, t:{tenant}:{sagaId} (each term escaped; at
// most 1,023 bytes). So each tenant has its own saga under one saga id, and one saga id
// may name a saga of each type (each in its type's partition). Its fields:
//
//   id              the saga key
//   sagaType        the partition key
//   tenant, sagaId  the saga's terms, readable
//   listKey         {id}:{sagaType, '%' and ':' escaped}: unique over the container, the
//                   order in which list() pages (one property, so the default range index
//                   serves it)
//   version         number
//   state           the state's bytes, base64
//   status          "active" or "completed"
//   startedAt, updatedAt   Unix microseconds
//   completedAt     Unix microseconds; absent while active
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_SAGA_ITEM_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_SAGA_ITEM_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/sagas/saga_store.h"

namespace docket::cosmos::detail::saga {

inline constexpr std::string_view kContainer = "docket_sagas";
inline constexpr std::string_view kPartitionKeyPath = "/sagaType";

// Where the saga lives: its id and its partition key value. Throws KeyTooLongError
// naming the term to shorten.
struct SagaAddress {
  std::string id;
  std::string partition;
};
SagaAddress saga_address(const SagaId& saga);

// "active" or "completed", as the status field holds it.
std::string_view status_text(SagaStatus status);

// The whole item of `saga` at `record`.
nlohmann::json saga_item(const SagaId& saga, const SagaAddress& address, const SagaRecord& record);

// The record and the listing's summary an item holds. Throw InfrastructureError naming
// `store` for an item saga_item() did not write.
SagaRecord saga_record_of(const nlohmann::json& item, std::string_view store);
SagaSummary saga_summary_of(const nlohmann::json& item, std::string_view store);

// The listKey of `saga`.
std::string list_key(const SagaId& saga);

}  // namespace docket::cosmos::detail::saga

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_SAGA_ITEM_H_
