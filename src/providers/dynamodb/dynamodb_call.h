// One DynamoDB operation as the client sends it (Call) and what comes back (Response).
//
// Replay is the caller's promise about sending the request twice. The client repeats a
// request that was provably not applied (throttled, or the connection never made)
// whatever the promise; it repeats a request that may have been applied (a server
// error, a timeout or broken connection after sending) only when replay is kSafe.
//
// Thread-safety: plain values.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CALL_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CALL_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <utility>

#include "providers/dynamodb/dynamodb_service_error.h"

namespace docket::dynamodb {

enum class Replay : bool {
  // Applying it twice could differ from applying it once: an UpdateItem that adds, a
  // conditional put whose second try would report a duplicate that was its own first.
  kUnsafe,
  // Applying it twice is applying it once: reads (GetItem, Query, DescribeTable), a
  // whole-item put or delete that is the same each time, TransactWriteItems with a
  // ClientRequestToken (DynamoDB applies one token once within ten minutes).
  kSafe,
};

struct Call {
  std::string_view operation{};  // "PutItem": the X-Amz-Target is DynamoDB_20120810.<operation>
  std::string_view table{};      // for messages; empty when the operation names none
  Replay replay = Replay::kUnsafe;
  // Error kinds handed back as a Response instead of thrown: a condition that did not
  // hold is an outcome for the caller to act on.
  ErrorKinds expected{ErrorKind::kConditionalCheckFailed, ErrorKind::kTransactionCanceled};
};

// The parsed answer of a successful call, or an error of a kind the call expected.
class Response {
 public:
  explicit Response(nlohmann::json body) : body_(std::move(body)) {}
  explicit Response(ServiceError error) : error_(std::move(error)) {}

  bool ok() const noexcept { return !error_.has_value(); }
  // The answer's JSON; null when !ok().
  const nlohmann::json& body() const noexcept { return body_; }
  nlohmann::json& body() noexcept { return body_; }
  // The expected error; only when !ok().
  const ServiceError& error() const { return error_.value(); }

 private:
  nlohmann::json body_;
  std::optional<ServiceError> error_;
};

}  // namespace docket::dynamodb

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CALL_H_
