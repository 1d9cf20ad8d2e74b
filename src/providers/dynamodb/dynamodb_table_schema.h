// The shape of a table docket uses: its name, its primary key (a partition key and
// perhaps a sort key) and its global secondary indexes (each projecting every
// attribute). What the table ensurer creates or checks, and what the limit checks
// read the key attributes from.
//
// Thread-safety: plain values and pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_SCHEMA_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_SCHEMA_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docket::dynamodb::detail {

enum class KeyType : char { kString = 'S', kNumber = 'N', kBinary = 'B' };

struct KeyAttribute {
  std::string name{};
  KeyType type = KeyType::kString;
};

struct GlobalIndex {
  std::string name{};
  KeyAttribute partition_key{};
  std::optional<KeyAttribute> sort_key{};
};

struct TableSchema {
  std::string name{};  // the whole name, the store URL's table_prefix included
  KeyAttribute partition_key{};
  std::optional<KeyAttribute> sort_key{};
  std::vector<GlobalIndex> global_indexes{};
};

// Throws ConfigurationError when DynamoDB could not create `schema`: a table or index
// name outside 3..255 of [A-Za-z0-9_.-], an empty attribute name, one attribute given
// two types, two indexes of one name.
void check_schema(const TableSchema& schema);

// The CreateTable input: on-demand billing (PAY_PER_REQUEST), indexes projecting ALL.
nlohmann::json create_table_request(const TableSchema& schema);

// How an existing table (DescribeTable's "Table") differs from `schema` in what docket
// relies on (primary key names and types; each index's presence and key), or nullopt.
// Indexes docket does not name are allowed.
std::optional<std::string> schema_mismatch(const TableSchema& schema,
                                           const nlohmann::json& description);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_TABLE_SCHEMA_H_
