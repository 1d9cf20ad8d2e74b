#include "providers/dynamodb/dynamodb_table_schema.h"

#include <algorithm>
#include <map>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_url.h"

namespace docket::dynamodb::detail {
namespace {

std::string type_name(KeyType type) {
  return std::string(1, static_cast<char>(type));
}

nlohmann::json key_schema(const KeyAttribute& partition, const std::optional<KeyAttribute>& sort) {
  nlohmann::json schema =
      nlohmann::json::array({{{"AttributeName", partition.name}, {"KeyType", "HASH"}}});
  if (sort) {
    schema.push_back({{"AttributeName", sort->name}, {"KeyType", "RANGE"}});
  }
  return schema;
}

// "pk (S) HASH, sk (S) RANGE" for messages.
std::string key_text(const KeyAttribute& partition, const std::optional<KeyAttribute>& sort) {
  std::string text = partition.name + " (" + type_name(partition.type) + ") HASH";
  if (sort) {
    text += ", " + sort->name + " (" + type_name(sort->type) + ") RANGE";
  }
  return text;
}

// "pk (S) HASH, sk (S) RANGE" of a described KeySchema, types from AttributeDefinitions.
std::string described_key_text(const nlohmann::json& keys, const nlohmann::json& definitions) {
  std::string text;
  for (const nlohmann::json& key : keys) {
    const std::string name = key.value("AttributeName", "");
    std::string type = "?";
    for (const nlohmann::json& definition : definitions) {
      if (definition.value("AttributeName", "") == name) {
        type = definition.value("AttributeType", "?");
      }
    }
    text += (text.empty() ? "" : ", ") + name + " (" + type + ") " + key.value("KeyType", "?");
  }
  return text;
}

void check_name(std::string_view what, std::string_view name) {
  if (name.size() < 3 || name.size() > kMaxTableNameBytes ||
      name.find_first_not_of(kTableNameCharacters) != std::string_view::npos) {
    throw ConfigurationError("DynamoDB " + std::string(what) + " name '" + std::string(name) +
                             "' is not 3 to 255 of the characters A-Z a-z 0-9 _ . -; shorten "
                             "or change the store URL's table_prefix");
  }
}

}  // namespace

void check_schema(const TableSchema& schema) {
  check_name("table", schema.name);
  std::map<std::string, KeyType, std::less<>> types;
  const auto add = [&](const KeyAttribute& attribute) {
    if (attribute.name.empty()) {
      throw ConfigurationError("DynamoDB table '" + schema.name + "': a key attribute has no name");
    }
    const auto [it, inserted] = types.emplace(attribute.name, attribute.type);
    if (!inserted && it->second != attribute.type) {
      throw ConfigurationError("DynamoDB table '" + schema.name + "': key attribute '" +
                               attribute.name + "' is given two types (" + type_name(it->second) +
                               " and " + type_name(attribute.type) +
                               "); an attribute has one type in every key");
    }
  };
  add(schema.partition_key);
  if (schema.sort_key) {
    add(*schema.sort_key);
  }
  for (std::size_t i = 0; i < schema.global_indexes.size(); ++i) {
    const GlobalIndex& index = schema.global_indexes[i];
    check_name("index", index.name);
    for (std::size_t j = 0; j < i; ++j) {
      if (schema.global_indexes[j].name == index.name) {
        throw ConfigurationError("DynamoDB table '" + schema.name + "' names index '" + index.name +
                                 "' twice");
      }
    }
    add(index.partition_key);
    if (index.sort_key) {
      add(*index.sort_key);
    }
  }
}

nlohmann::json create_table_request(const TableSchema& schema) {
  std::map<std::string, KeyType> attributes{{schema.partition_key.name, schema.partition_key.type}};
  const auto note = [&](const std::optional<KeyAttribute>& key) {
    if (key) {
      attributes.emplace(key->name, key->type);
    }
  };
  note(schema.sort_key);
  nlohmann::json request{{"TableName", schema.name},
                         {"BillingMode", "PAY_PER_REQUEST"},
                         {"KeySchema", key_schema(schema.partition_key, schema.sort_key)}};
  if (!schema.global_indexes.empty()) {
    nlohmann::json indexes = nlohmann::json::array();
    for (const GlobalIndex& index : schema.global_indexes) {
      attributes.emplace(index.partition_key.name, index.partition_key.type);
      note(index.sort_key);
      indexes.push_back({{"IndexName", index.name},
                         {"KeySchema", key_schema(index.partition_key, index.sort_key)},
                         {"Projection", {{"ProjectionType", "ALL"}}}});
    }
    request["GlobalSecondaryIndexes"] = std::move(indexes);
  }
  nlohmann::json definitions = nlohmann::json::array();
  for (const auto& [name, type] : attributes) {
    definitions.push_back({{"AttributeName", name}, {"AttributeType", type_name(type)}});
  }
  request["AttributeDefinitions"] = std::move(definitions);
  return request;
}

std::optional<std::string> schema_mismatch(const TableSchema& schema,
                                           const nlohmann::json& description) {
  const nlohmann::json definitions =
      description.value("AttributeDefinitions", nlohmann::json::array());
  const std::string wanted = key_text(schema.partition_key, schema.sort_key);
  const std::string found =
      described_key_text(description.value("KeySchema", nlohmann::json::array()), definitions);
  if (found != wanted) {
    return "its primary key is " + found + ", docket's is " + wanted;
  }
  const nlohmann::json indexes =
      description.value("GlobalSecondaryIndexes", nlohmann::json::array());
  for (const GlobalIndex& index : schema.global_indexes) {
    const auto it = std::find_if(indexes.begin(), indexes.end(), [&](const nlohmann::json& i) {
      return i.value("IndexName", "") == index.name;
    });
    if (it == indexes.end()) {
      return "it has no global secondary index '" + index.name + "' (" +
             key_text(index.partition_key, index.sort_key) + ")";
    }
    const std::string index_found =
        described_key_text(it->value("KeySchema", nlohmann::json::array()), definitions);
    if (index_found != key_text(index.partition_key, index.sort_key)) {
      return "its index '" + index.name + "' is keyed " + index_found + ", docket's is " +
             key_text(index.partition_key, index.sort_key);
    }
  }
  return std::nullopt;
}

}  // namespace docket::dynamodb::detail
