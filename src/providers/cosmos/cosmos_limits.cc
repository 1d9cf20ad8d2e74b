#include "providers/cosmos/cosmos_limits.h"

#include <string>

#include "docket/core/error.h"

namespace docket::cosmos::detail {

void check_item_size(const nlohmann::json& item, std::string_view store) {
  const std::size_t bytes = item.dump().size();
  if (bytes > kMaxItemBytes) {
    throw InvalidInputError(std::string(store) + ": item '" + item.value("id", "?") + "' is " +
                            std::to_string(bytes) + " bytes, over the " +
                            std::to_string(kMaxItemBytes) +
                            " bytes docket allows an item under Cosmos DB's 2 MB limit; nothing "
                            "was written. Shorten what it carries (an error text, a payload)");
  }
}

}  // namespace docket::cosmos::detail
