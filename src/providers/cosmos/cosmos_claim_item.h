// The claim inbox's items: one per entry in the container {prefix}docket_claim_inbox,
// partitioned by its id (each entry a logical partition of its own: every operation on an
// entry is a point operation), the id being the inbox entry id of src/keys for Cosmos DB,
// {tenant}:{messageId}:{handlerType} with '%' ':' '/' '\' '?' '#', space and control
// characters escaped (docket/keys/inbox_key.h), at most 1,023 bytes. Its fields are the
// whole entry:
//
//   id            the entry id (also the partition key)
//   tenant, messageId, handlerType   strings (on every write: the terms stay readable)
//   status        "received", "processing", "processed", "failed"
//   retryCount    number
//   receivedAt, updatedAt            Unix microseconds (exact in a double: < 2^53)
//   owner, claimId, lastError        string or null
//   leaseUntil, processedAt, nextAttemptAt   Unix microseconds or null
//
// Times are numbers so that the administration queries compare them in the index.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_ITEM_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_ITEM_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::cosmos::detail::claim {

inline constexpr std::string_view kContainer = "docket_claim_inbox";
inline constexpr std::string_view kPartitionKeyPath = "/id";

// The whole item of `entry`, stored under `id`.
nlohmann::json claim_item(const std::string& id, const ClaimEntry& entry);

// The entry an item holds. Throws InfrastructureError naming `store` and the item when it
// is not an item claim_item() wrote.
ClaimEntry claim_entry_of(const nlohmann::json& item, std::string_view store);

}  // namespace docket::cosmos::detail::claim

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_CLAIM_ITEM_H_
