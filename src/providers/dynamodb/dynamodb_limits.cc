#include "providers/dynamodb/dynamodb_limits.h"

#include <string>

#include "docket/core/error.h"
#include "keys/limits.h"
#include "providers/dynamodb/dynamodb_item_size.h"

namespace docket::dynamodb::detail {
namespace {

using keys::detail::kDynamoPartitionKey;
using keys::detail::kDynamoSortKey;

enum class Presence { kRequired, kOptional };

// Checks `attribute`'s value in `item` as a key value of `limit`.
void check_key_value(const TableSchema& schema, const nlohmann::json& item,
                     const KeyAttribute& attribute, const keys::detail::FieldLimit& limit,
                     Presence presence) {
  const std::string where = "DynamoDB table '" + schema.name + "': " + std::string(limit.field) +
                            " attribute '" + attribute.name + "'";
  const auto it = item.find(attribute.name);
  if (it == item.end()) {
    if (presence == Presence::kRequired) {
      throw InvalidInputError(where + " is missing; every item and key needs it");
    }
    return;
  }
  const std::string type(1, static_cast<char>(attribute.type));
  if (!it->is_object() || !it->contains(type)) {
    throw InvalidInputError(where + " must be of type " + type + ", got " + it->dump());
  }
  const std::size_t size = attribute_value_size(*it, attribute.name);
  if (attribute.type != KeyType::kNumber && size == 0) {
    throw InvalidInputError(where + " is empty; DynamoDB keys hold at least 1 byte");
  }
  if (size > limit.bytes) {
    throw KeyTooLongError("dynamodb", limit.bytes, size,
                          where + " is " + std::to_string(size) + " bytes, over DynamoDB's " +
                              std::to_string(limit.bytes) + "-byte limit for a " +
                              std::string(limit.field) +
                              " value; nothing was written. Shorten it: docket never truncates "
                              "a key, since two keys could then become one.");
  }
}

void check_primary_key(const TableSchema& schema, const nlohmann::json& item) {
  check_key_value(schema, item, schema.partition_key, kDynamoPartitionKey, Presence::kRequired);
  if (schema.sort_key) {
    check_key_value(schema, item, *schema.sort_key, kDynamoSortKey, Presence::kRequired);
  }
}

void require_object(const TableSchema& schema, const nlohmann::json& value, std::string_view what) {
  if (!value.is_object()) {
    throw InvalidInputError("DynamoDB table '" + schema.name + "': " + std::string(what) +
                            " must be a JSON object of attributes, got " + value.type_name());
  }
}

}  // namespace

void check_item(const TableSchema& schema, const nlohmann::json& item) {
  require_object(schema, item, "an item");
  check_primary_key(schema, item);
  for (const GlobalIndex& index : schema.global_indexes) {
    // An item without an index's key attributes is simply not in that index.
    check_key_value(schema, item, index.partition_key, kDynamoPartitionKey, Presence::kOptional);
    if (index.sort_key) {
      check_key_value(schema, item, *index.sort_key, kDynamoSortKey, Presence::kOptional);
    }
  }
  const std::size_t size = item_size(item);
  if (size > kMaxItemBytes) {
    std::string largest;
    std::size_t largest_size = 0;
    for (const auto& [name, value] : item.items()) {
      const std::size_t attribute_size = name.size() + attribute_value_size(value, name);
      if (attribute_size > largest_size) {
        largest = name;
        largest_size = attribute_size;
      }
    }
    throw InvalidInputError(
        "DynamoDB table '" + schema.name + "': the item is " + std::to_string(size) +
        " bytes, over DynamoDB's " + std::to_string(kMaxItemBytes) +
        "-byte (400 KB) item limit; its largest attribute is '" + largest + "' (" +
        std::to_string(largest_size) + " bytes). Nothing was written: make the payload smaller.");
  }
}

void check_key(const TableSchema& schema, const nlohmann::json& key) {
  require_object(schema, key, "a key");
  check_primary_key(schema, key);
  const std::size_t expected = schema.sort_key ? 2 : 1;
  if (key.size() != expected) {
    throw InvalidInputError("DynamoDB table '" + schema.name + "': a key holds exactly its " +
                            std::to_string(expected) + " key attribute" +
                            (expected == 1 ? "" : "s") + ", this one has " +
                            std::to_string(key.size()) + ": " + key.dump());
  }
}

}  // namespace docket::dynamodb::detail
