// The size of a DynamoDB item as DynamoDB counts it against its 400 KB limit
// ("Item sizes and formats", DynamoDB developer guide, made exact against DynamoDB
// Local): each attribute's name in UTF-8 bytes plus its value, where a value is
//
//   S     its UTF-8 bytes               B     its raw bytes (the JSON carries base64)
//   N     0: 1 byte; else 1 + one byte per base-100 digit (digit pairs aligned on the
//         decimal point, leading and trailing zero pairs dropped), + 1 if negative:
//         5 and 12 take 2 bytes, 1.5 and 120 take 3, -1.5 takes 4
//   BOOL, NULL                1 byte
//   SS, NS, BS                the sum of their elements
//   L, M                      3 bytes + per element 1 byte + its size (an M element's
//                             name counted too)
//
// Items are DynamoDB JSON: {"name": {"S": "text"}, "n": {"N": "42"}, ...}.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_ITEM_SIZE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_ITEM_SIZE_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

namespace docket::dynamodb::detail {

// Throws InvalidInputError naming the attribute (a path such as "payload.lines[2]")
// when a value is not DynamoDB JSON: not an object of exactly one known type, a
// payload of the wrong JSON type, a number that is not a number, base64 that is not
// base64.
std::size_t attribute_value_size(const nlohmann::json& value, std::string_view attribute);

// The item's size; the same refusals, and for an item that is not a JSON object.
std::size_t item_size(const nlohmann::json& item);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_ITEM_SIZE_H_
