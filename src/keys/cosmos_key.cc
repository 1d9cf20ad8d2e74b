// The Cosmos DB provider's key terms (cosmos_key.h).
#include "keys/cosmos_key.h"

#include <utility>

#include "keys/key_builder.h"
#include "keys/limits.h"

namespace docket::keys {
namespace {

// Keeps the key item's id clear of every other id docket writes in the inbox container
// (the header comment says how).
constexpr std::string_view kOutboxKeyItemPrefix = "docket:outbox:key:";

}  // namespace

Key compose_cosmos_outbox_key_item_id(std::string_view tenant, std::string_view ordering_key) {
  detail::KeyBuilder key(Provider::kCosmosDb, "outbox key item id", detail::kCosmosItemId,
                         detail::KeyBuilder::Mode::kThrow);
  key.constant(kOutboxKeyItemPrefix);
  key.term("tenant", tenant);
  key.constant(detail::kSeparatorText);
  key.term("ordering key", ordering_key);
  return std::move(key).finish();
}

}  // namespace docket::keys
