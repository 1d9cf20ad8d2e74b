#include "providers/dynamodb/dynamodb_key_schemas.h"

#include <optional>
#include <utility>

#include "docket/core/error.h"

namespace docket::dynamodb::detail {
namespace {

// The attribute's declared type, from AttributeDefinitions.
KeyType type_of(const nlohmann::json& description, const std::string& name) {
  for (const nlohmann::json& definition :
       description.value("AttributeDefinitions", nlohmann::json::array())) {
    if (definition.value("AttributeName", "") == name) {
      const std::string type = definition.value("AttributeType", "");
      if (type == "N") {
        return KeyType::kNumber;
      }
      return type == "B" ? KeyType::kBinary : KeyType::kString;
    }
  }
  throw InfrastructureError("DynamoDB DescribeTable of '" + description.value("TableName", "") +
                            "' defines no type for its key attribute '" + name + "'");
}

// The HASH and RANGE attributes of a KeySchema.
std::pair<KeyAttribute, std::optional<KeyAttribute>> keys_of(const nlohmann::json& description,
                                                             const nlohmann::json& key_schema) {
  std::optional<KeyAttribute> hash;
  std::optional<KeyAttribute> range;
  for (const nlohmann::json& element : key_schema) {
    const std::string name = element.value("AttributeName", "");
    KeyAttribute attribute{name, type_of(description, name)};
    (element.value("KeyType", "") == "RANGE" ? range : hash) = std::move(attribute);
  }
  if (!hash) {
    throw InfrastructureError("DynamoDB DescribeTable of '" + description.value("TableName", "") +
                              "' names no partition (HASH) key");
  }
  return {std::move(*hash), std::move(range)};
}

}  // namespace

TableSchema table_schema_of(const nlohmann::json& description) {
  TableSchema schema;
  schema.name = description.value("TableName", "");
  auto [hash, range] =
      keys_of(description, description.value("KeySchema", nlohmann::json::array()));
  schema.partition_key = std::move(hash);
  schema.sort_key = std::move(range);
  for (const nlohmann::json& index :
       description.value("GlobalSecondaryIndexes", nlohmann::json::array())) {
    auto [index_hash, index_range] =
        keys_of(description, index.value("KeySchema", nlohmann::json::array()));
    schema.global_indexes.push_back(
        {index.value("IndexName", ""), std::move(index_hash), std::move(index_range)});
  }
  return schema;
}

const TableSchema& KeySchemas::of(std::string_view table) {
  {
    const std::lock_guard lock(mutex_);
    if (const auto known = schemas_.find(table); known != schemas_.end()) {
      return known->second;
    }
  }
  // Read outside the lock: two threads may both describe a new table, and the first to
  // come back keeps its answer (both describe the same table).
  const Response response = client_.call(
      {.operation = "DescribeTable", .table = table, .replay = Replay::kSafe, .expected = {}},
      {{"TableName", table}});
  TableSchema schema = table_schema_of(response.body().at("Table"));
  const std::lock_guard lock(mutex_);
  return schemas_.try_emplace(std::string(table), std::move(schema)).first->second;
}

}  // namespace docket::dynamodb::detail
