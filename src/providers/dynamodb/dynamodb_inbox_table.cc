#include "providers/dynamodb/dynamodb_inbox_table.h"

#include <string>

#include "docket/inbox/inbox_schema.h"
#include "docket/keys/provider.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail::inbox {

TableSchema inbox_table_schema(const StoreUrl& url) {
  return TableSchema{
      .name = url.table_name(kInboxMessagesTable),
      .partition_key = {std::string(kId), KeyType::kString},
      .sort_key = std::nullopt,
      .global_indexes = {{std::string(kShardProcessedIndex),
                          {std::string(kShard), KeyType::kNumber},
                          KeyAttribute{std::string(kProcessedAt), KeyType::kNumber}}}};
}

nlohmann::json dedup_key(const TableSchema& schema, const DedupKey& key) {
  nlohmann::json item = {
      {std::string(kId), string_value(kit::inbox_dedup_id(keys::Provider::kDynamoDb, key).value)}};
  check_key(schema, item);
  return item;
}

nlohmann::json dedup_item(const TableSchema& schema, const InboxRecord& record,
                          Timestamp processed_at) {
  nlohmann::json item = dedup_key(schema, record.key);
  const std::string& id = item[std::string(kId)]["S"].get_ref<const std::string&>();
  item[std::string(kShard)] = number_value(claim::shard_of(id));
  item["tenant"] = string_value(record.key.tenant);
  item["consumer_id"] = string_value(record.key.consumer_id);
  item["message_id"] = string_value(record.key.message_id);
  item["event_type"] = string_value(record.event_type);
  item["occurred_at"] = number_value(kit::to_micros(record.occurred_at));
  item[std::string(kProcessedAt)] = number_value(kit::to_micros(processed_at));
  const auto optional = [&](const char* name, const std::optional<std::string>& value) {
    if (value) {
      item[name] = string_value(*value);
    }
  };
  optional("source", record.source);
  optional("causation_id", record.causation_id);
  optional("correlation_id", record.correlation_id);
  check_item(schema, item);
  return item;
}

}  // namespace docket::dynamodb::detail::inbox
