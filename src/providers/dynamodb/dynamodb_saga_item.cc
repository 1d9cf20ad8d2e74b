#include "providers/dynamodb/dynamodb_saga_item.h"

#include <optional>
#include <string>

#include "docket/core/error.h"
#include "docket/keys/provider.h"
#include "docket/keys/saga_key.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/time_codec.h"

namespace docket::dynamodb::detail::saga {
namespace {

std::string item_attribute(std::string_view attribute) {
  return std::string(attribute);
}

}  // namespace

TableSchema saga_table_schema(const StoreUrl& url) {
  const KeyAttribute completed_at{item_attribute(kCompletedAt), KeyType::kNumber};
  return TableSchema{.name = url.table_name(kTableBase),
                     .partition_key = {item_attribute(kKey), KeyType::kString},
                     .sort_key = KeyAttribute{item_attribute(kSagaType), KeyType::kString},
                     .global_indexes = {{item_attribute(kShardCompletedIndex),
                                         {item_attribute(kShard), KeyType::kNumber},
                                         completed_at},
                                        {item_attribute(kTenantCompletedIndex),
                                         {item_attribute(kTenant), KeyType::kString},
                                         completed_at}}};
}

nlohmann::json saga_item_key(const TableSchema& schema, const SagaId& saga) {
  nlohmann::json key = {
      {item_attribute(kKey), string_value(kit::saga_key(keys::Provider::kDynamoDb, saga).value)},
      {item_attribute(kSagaType),
       string_value(kit::saga_type_key(keys::Provider::kDynamoDb, saga).value)}};
  check_key(schema, key);
  return key;
}

nlohmann::json saga_item(const TableSchema& schema, const SagaId& saga, const SagaRecord& record) {
  nlohmann::json item = saga_item_key(schema, saga);
  item[item_attribute(kTenant)] = string_value(saga.tenant().value());
  item[item_attribute(kVersion)] = number_value(record.version);
  item[item_attribute(kState)] = binary_value(record.state);
  item[item_attribute(kStatus)] =
      string_value(record.status == SagaStatus::kCompleted ? kCompleted : kActive);
  item[item_attribute(kStartedAt)] = number_value(kit::to_micros(record.started_at));
  item[item_attribute(kUpdatedAt)] = number_value(kit::to_micros(record.updated_at));
  if (record.completed_at) {
    const std::string& key = item[item_attribute(kKey)]["S"].get_ref<const std::string&>();
    item[item_attribute(kCompletedAt)] = number_value(kit::to_micros(*record.completed_at));
    item[item_attribute(kShard)] = number_value(claim::shard_of(key));
  }
  check_item(schema, item);
  return item;
}

namespace {

SagaStatus status_of(const ItemReader& reader, std::string_view store) {
  const std::string_view status = reader.string(kStatus);
  if (status != kActive && status != kCompleted) {
    throw InfrastructureError(std::string(store) + ": a saga item has status '" +
                              std::string(status) + "', neither '" + std::string(kActive) +
                              "' nor '" + std::string(kCompleted) +
                              "': the item was not written by docket");
  }
  return status == kCompleted ? SagaStatus::kCompleted : SagaStatus::kActive;
}

}  // namespace

SagaRecord read_saga_item(const nlohmann::json& item, std::string_view store) {
  const ItemReader reader(item, store);
  SagaRecord record{.version = reader.number(kVersion),
                    .state = reader.binary(kState),
                    .status = status_of(reader, store),
                    .started_at = kit::from_micros(reader.number(kStartedAt)),
                    .updated_at = kit::from_micros(reader.number(kUpdatedAt)),
                    .completed_at = std::nullopt};
  if (const auto completed_at = reader.optional_number(kCompletedAt)) {
    record.completed_at = kit::from_micros(*completed_at);
  }
  return record;
}

SagaSummary read_saga_summary(const nlohmann::json& item, std::string_view store) {
  const ItemReader reader(item, store);
  const std::string_view key = reader.string(kKey);
  const std::optional<keys::SagaTerms> terms = keys::parse_saga_key(keys::Provider::kDynamoDb, key);
  if (!terms) {
    throw InfrastructureError(
        std::string(store) + ": a saga item's partition key '" + std::string(key) +
        "' is not a tenanted saga key docket writes (SAGA#t:{tenant}:{sagaId}); "
        "if it is of an earlier release's untenanted shape, run docket "
        "migrate tenant-rekey first");
  }
  const auto completed_at = reader.optional_number(kCompletedAt);
  return kit::saga_list_row(terms->tenant, reader.string(kSagaType), terms->saga_id,
                            reader.number(kVersion), reader.number(kStartedAt),
                            reader.number(kUpdatedAt), completed_at);
}

}  // namespace docket::dynamodb::detail::saga
