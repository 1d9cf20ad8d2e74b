// The ExpressionAttributeNames of a request whose expressions write every attribute
// name as a placeholder of the same name (#status for status), so that no name can
// collide with one of DynamoDB's reserved words (STATUS, OWNER, ...) and the expression
// text reads like the item it changes. DynamoDB refuses a request that defines a name
// its expressions do not use, so the map holds exactly the placeholders found.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EXPRESSION_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EXPRESSION_H_

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string_view>

namespace docket::dynamodb::detail {

// {"#status": "status", ...} for every #name (letters, digits, '_') in `expressions`.
nlohmann::json attribute_names(std::initializer_list<std::string_view> expressions);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_EXPRESSION_H_
