// A DynamoDB error answer, parsed: the exception type named by the body's __type, its
// message, and for a cancelled transaction the reason of each item.
//
//   {"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
//    "message":"The conditional request failed"}
//
// The kind is what docket branches on: expected outcomes (a condition that did not
// hold) come back to the caller as values, the rest becomes an exception
// (dynamodb_failure.h), and throttling and server errors are what the client repeats
// (dynamodb_client.h).
//
// Thread-safety: plain values and pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SERVICE_ERROR_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SERVICE_ERROR_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "providers/kit/http/error_set.h"

namespace docket::dynamodb::detail {

enum class ErrorKind : std::uint8_t {
  kConditionalCheckFailed,  // a ConditionExpression did not hold; nothing written
  kTransactionCanceled,     // TransactWriteItems/TransactGetItems cancelled; see reasons
  kResourceNotFound,        // no such table (or index), or it is not ACTIVE yet
  kResourceInUse,           // CreateTable of a table that exists, or is being created
  kThrottled,    // ProvisionedThroughputExceeded, Throttling, RequestLimitExceeded: not applied
  kValidation,   // ValidationException, SerializationException: a bad request
  kCredentials,  // unknown or expired key, bad signature, access denied
  kTransactionConflict,  // another transaction holds an item
  kTokenReused,  // IdempotentParameterMismatch: a ClientRequestToken reused for another request
  kServerError,  // HTTP 5xx: may or may not have been applied
  kOther,
};

// Why one item of a cancelled transaction failed, in the order of the request's items
// ("None" for the items that were fine).
struct CancellationReason {
  std::string code{};  // "None", "ConditionalCheckFailed", "TransactionConflict", ...
  std::string message{};
  nlohmann::json item{};  // the item's old image when asked for with ALL_OLD; null otherwise
};

struct ServiceError {
  long http_status = 0;
  std::string type;  // "ConditionalCheckFailedException" (the part after '#')
  ErrorKind kind = ErrorKind::kOther;
  std::string message{};
  std::string request_id{};                                // x-amzn-RequestId, for AWS support
  std::vector<CancellationReason> cancellation_reasons{};  // kTransactionCanceled only
  nlohmann::json item{};  // ConditionalCheckFailed with ReturnValuesOnConditionCheckFailure

  // The index of the first reason whose code is not "None", or -1.
  int first_cancelled_item() const noexcept;
};

// Parses an error answer. A body that is not the JSON DynamoDB sends (a proxy's HTML
// page, an empty body) still yields an error: its type is "HTTP <status>" and its
// message the body's start.
ServiceError parse_service_error(long http_status, std::string_view body,
                                 std::string_view request_id);

// The kind of a type name, as the body's __type or a cancellation reason's code names it.
ErrorKind error_kind(std::string_view type, long http_status);

// A set of error kinds, e.g. those a call expects back as values.
using ErrorKinds = kit::http::ErrorSet<ErrorKind>;

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SERVICE_ERROR_H_
