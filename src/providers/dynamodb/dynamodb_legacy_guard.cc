#include "providers/dynamodb/dynamodb_legacy_guard.h"

#include <utility>

#include "docket/keys/legacy.h"
#include "docket/keys/provider.h"
#include "providers/dynamodb/dynamodb_attribute.h"

namespace docket::dynamodb {
namespace {

// Every key docket composes for DynamoDB streams begins with the tenant segment "t:";
// sagas with "SAGA#t:". The filter keeps the rest, which the legacy predicates judge.
constexpr std::string_view kStreamTenantedPrefix = "t:";
constexpr std::string_view kSagaTenantedPrefix = "SAGA#t:";

kit::LegacyPlace table_place(const std::string& table, LegacyKeyKind kind) {
  return {.collection = table,
          .where = "DynamoDB table '" + table + "'",
          .record = kind == LegacyKeyKind::kStream ? "event item" : "saga item",
          .records = "items",
          .fresh = "table_prefix"};
}

}  // namespace

LegacyGuard::LegacyGuard(std::string table, std::string key_attribute, LegacyKeyKind kind,
                         std::size_t probe_items)
    : table_(std::move(table)),
      key_attribute_(std::move(key_attribute)),
      kind_(kind),
      probe_items_(probe_items),
      once_(table_place(table_, kind)) {}

void LegacyGuard::check(const Client& client) {
  once_.check([&] { return probe(client); });
}

std::optional<std::string> LegacyGuard::probe(const Client& client) const {
  const std::string_view prefix =
      kind_ == LegacyKeyKind::kStream ? kStreamTenantedPrefix : kSagaTenantedPrefix;
  const Response response =
      client.call({.operation = "Scan", .table = table_, .replay = Replay::kSafe},
                  {{"TableName", table_},
                   {"Limit", probe_items_},
                   {"ConsistentRead", true},
                   {"ProjectionExpression", "#key"},
                   {"FilterExpression", "NOT begins_with(#key, :tenanted)"},
                   {"ExpressionAttributeNames", {{"#key", key_attribute_}}},
                   {"ExpressionAttributeValues", {{":tenanted", string_value(prefix)}}}});
  const auto items = response.body().find("Items");
  if (items == response.body().end()) {
    return std::nullopt;
  }
  const std::string store = "the legacy-key probe of table '" + table_ + "'";
  for (const nlohmann::json& item : *items) {
    const std::string_view key = ItemReader(item, store).string(key_attribute_);
    const bool legacy = kind_ == LegacyKeyKind::kStream
                            ? keys::is_legacy_untenanted_stream_key(keys::Provider::kDynamoDb, key)
                            : keys::is_legacy_untenanted_saga_key(keys::Provider::kDynamoDb, key);
    if (legacy) {
      return std::string(key);
    }
  }
  return std::nullopt;
}

}  // namespace docket::dynamodb
