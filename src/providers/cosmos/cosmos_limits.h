// Cosmos DB's limits that docket checks before it sends, so that a write over one is
// refused with a message naming the limit, the size and what to do, and writes nothing:
// an item is at most 2 MB (as its JSON; the service counts its own system properties
// too, so docket leaves 1 KiB of room). Ids (1,023 bytes) and partition key values (2,048
// bytes) are src/keys' to check as it composes them.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_LIMITS_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_LIMITS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

namespace docket::cosmos::detail {

inline constexpr std::size_t kMaxItemBytes = 2 * 1024 * 1024 - 1024;

// Throws InvalidInputError naming `store`, the item's id, its size and the limit when
// `item` serialises to more than kMaxItemBytes.
void check_item_size(const nlohmann::json& item, std::string_view store);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_LIMITS_H_
