#include "providers/dynamodb/dynamodb_legacy_guard.h"

#include <utility>

#include "docket/error.h"
#include "docket/keys/legacy.h"
#include "docket/keys/provider.h"
#include "providers/dynamodb/dynamodb_attribute.h"

namespace docket::dynamodb {
namespace {

// Every key docket composes for DynamoDB streams begins with the tenant segment "t:";
// sagas with "SAGA#t:". The filter keeps the rest, which the legacy predicates judge.
constexpr std::string_view kStreamTenantedPrefix = "t:";
constexpr std::string_view kSagaTenantedPrefix = "SAGA#t:";

}  // namespace

LegacyGuard::LegacyGuard(std::string table, std::string key_attribute, LegacyKeyKind kind,
                         std::size_t probe_items)
    : table_(std::move(table)),
      key_attribute_(std::move(key_attribute)),
      kind_(kind),
      probe_items_(probe_items) {}

void LegacyGuard::check(const Client& client) {
  const std::lock_guard lock(mutex_);
  if (legacy_key_) {
    refuse(*legacy_key_);
  }
  if (probed_) {
    return;
  }
  const std::string_view prefix =
      kind_ == LegacyKeyKind::kStream ? kStreamTenantedPrefix : kSagaTenantedPrefix;
  ++probes_;
  const Response response =
      client.call({.operation = "Scan", .table = table_, .replay = Replay::kSafe},
                  {{"TableName", table_},
                   {"Limit", probe_items_},
                   {"ConsistentRead", true},
                   {"ProjectionExpression", "#key"},
                   {"FilterExpression", "NOT begins_with(#key, :tenanted)"},
                   {"ExpressionAttributeNames", {{"#key", key_attribute_}}},
                   {"ExpressionAttributeValues", {{":tenanted", string_value(prefix)}}}});
  probed_ = true;
  const auto items = response.body().find("Items");
  if (items != response.body().end()) {
    const std::string store = "the legacy-key probe of table '" + table_ + "'";
    for (const nlohmann::json& item : *items) {
      const std::string_view key = ItemReader(item, store).string(key_attribute_);
      const bool legacy =
          kind_ == LegacyKeyKind::kStream
              ? keys::is_legacy_untenanted_stream_key(keys::Provider::kDynamoDb, key)
              : keys::is_legacy_untenanted_saga_key(keys::Provider::kDynamoDb, key);
      if (legacy) {
        legacy_key_ = std::string(key);
        refuse(*legacy_key_);
      }
    }
  }
}

void LegacyGuard::refuse(const std::string& key) const {
  const std::string_view records = kind_ == LegacyKeyKind::kStream ? "event" : "saga";
  throw LegacyDataError(
      table_, key,
      "DynamoDB table '" + table_ + "' holds at least one " + std::string(records) +
          " item whose key ('" + key +
          "') carries no tenant segment, so it was written by a release that stored keys "
          "without one. Those items are unaddressable under the current key shape: acting "
          "on the absence this store found would start a second, disjoint history under "
          "the same identity. Nothing has been modified. Re-key the table's items with "
          "their tenant segment (docs/keys.md), or point the store at a fresh table_prefix.");
}

}  // namespace docket::dynamodb
