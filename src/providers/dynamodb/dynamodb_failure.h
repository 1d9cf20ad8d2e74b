// The exceptions of a failed DynamoDB call: each names the operation, the table and the
// store URL, says what DynamoDB (or the connection) said, and what to do.
//
//   ConfigurationError   no such table, a table busy being created or deleted, refused
//                        credentials: the setup must change
//   InvalidInputError    ValidationException, SerializationException: DynamoDB refused
//                        the request as malformed; IdempotentParameterMismatchException:
//                        a ClientRequestToken reused for another request. Nothing was
//                        written
//   InfrastructureError  throttled or server errors after the client's attempts, any
//                        other error: may be retried later (a connection that failed is
//                        the JSON service client's to report, kit/http/json_service_client.h)
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_FAILURE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_FAILURE_H_

#include <string>
#include <string_view>

#include "providers/dynamodb/dynamodb_call.h"
#include "providers/dynamodb/dynamodb_service_error.h"
#include "providers/dynamodb/dynamodb_url.h"

namespace docket::dynamodb::detail {

// What the failing call was, for its message.
struct FailedCall {
  const Call& call;
  const StoreUrl& url;
  std::string_view credentials_source{};  // AwsCredentials::source
  int attempts = 1;
};

// "DynamoDB PutItem on table 'app_inbox' at dynamodb://127.0.0.1:8000?region=us-east-1"
std::string describe(const Call& call, const StoreUrl& url);

[[noreturn]] void throw_service_failure(const FailedCall& failed, const ServiceError& error);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_FAILURE_H_
