// DynamoDB's size limits, checked before a request is sent, so that an item or key
// DynamoDB would refuse is refused by docket with the limit, the size and the
// attribute named, and nothing is written:
//
//   an item                  at most 400 KB (409,600 bytes) as dynamodb_item_size.h counts
//   a partition key value    1 to 2,048 bytes
//   a sort key value         1 to 1,024 bytes
//
// Key values count as item_size counts them (a string's UTF-8 bytes, a binary's raw
// bytes); the limits hold for the key attributes of the table and of each of its
// global secondary indexes. Nothing is ever truncated.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_LIMITS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_LIMITS_H_

#include <cstddef>
#include <nlohmann/json.hpp>

#include "providers/dynamodb/dynamodb_table_schema.h"
#include "providers/kit/store_kind_capabilities.h"

namespace docket::dynamodb::detail {

inline constexpr std::size_t kMaxItemBytes = 400 * 1024;
// Most actions one TransactWriteItems holds, and most bytes.
inline constexpr std::size_t kMaxTransactionActions = 100;
inline constexpr std::size_t kMaxTransactionBytes = 4 * 1024 * 1024;
// What one TransactWriteItems of a unit of work may hold.
inline constexpr kit::UnitLimits kUnitLimits{.max_writes = kMaxTransactionActions,
                                             .max_bytes = kMaxTransactionBytes,
                                             .max_record_bytes = kMaxItemBytes};

// Checks a whole item (PutItem, a transaction's Put): its size, its primary key
// (present, of the schema's type, within its limit) and any index key it carries
// (within its limit). Throws KeyTooLongError for a key value over its limit and
// InvalidInputError for the rest, naming the table, the attribute, the limit and the
// size.
void check_item(const TableSchema& schema, const nlohmann::json& item);

// Checks a primary key (GetItem, DeleteItem, UpdateItem, a condition check): exactly
// the schema's key attributes, each present, of its type and within its limit.
void check_key(const TableSchema& schema, const nlohmann::json& key);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_LIMITS_H_
