// A claim inbox item (dynamodb_claim_table.h) read back as the claim inbox's values,
// through the kit's one decoding of stored entries (kit/claim_row.h): an item docket
// did not write (an attribute missing or mistyped, an unknown status, a key term that
// no longer validates) is an InfrastructureError naming the store and the attribute.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_ITEM_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_ITEM_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "docket/inbox/claim_inbox_store.h"

namespace docket::dynamodb::detail::claim {

// `item`: a whole item (GetItem's Item, a Query's or Scan's items, ALL_NEW or ALL_OLD
// attributes); `store` names the store and its table in errors.
ClaimEntry claim_entry_of(const nlohmann::json& item, std::string_view store);

}  // namespace docket::dynamodb::detail::claim

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLAIM_ITEM_H_
