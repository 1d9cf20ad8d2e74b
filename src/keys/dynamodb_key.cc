// The DynamoDB provider's key terms (dynamodb_key.h).
#include "keys/dynamodb_key.h"

#include <utility>

#include "keys/key_builder.h"
#include "keys/limits.h"

namespace docket::keys {

Key compose_dynamodb_outbox_key_item(std::string_view tenant, std::string_view ordering_key) {
  detail::KeyBuilder key(Provider::kDynamoDb, "outbox key item", detail::kDynamoPartitionKey,
                         detail::KeyBuilder::Mode::kThrow);
  key.constant("docket:outbox:key:");
  key.constant(detail::kTenantMarker);
  key.term("tenant", tenant);
  key.constant(detail::kSeparatorText);
  key.term("ordering key", ordering_key);
  return std::move(key).finish();
}

}  // namespace docket::keys
