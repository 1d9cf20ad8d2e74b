#include "providers/dynamodb/dynamodb_failure.h"

#include "docket/core/error.h"
#include "providers/kit/http/transport_failure_text.h"

namespace docket::dynamodb::detail {
namespace {

std::string reasons_text(const ServiceError& error) {
  std::string text;
  for (std::size_t i = 0; i < error.cancellation_reasons.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::string("item ") + std::to_string(i) + ": " +
            error.cancellation_reasons[i].code;
  }
  return text.empty() ? "none given" : text;
}

std::string what_to_do(const FailedCall& failed, const ServiceError& error) {
  const std::string region = "region " + failed.url.region;
  switch (error.kind) {
    case ErrorKind::kResourceNotFound:
      return "The table does not exist in " + region +
             " of this endpoint, or is not ACTIVE yet: check region and table_prefix in the "
             "store URL; docket creates its tables when a store opens.";
    case ErrorKind::kResourceInUse:
      return "The table is being created, updated or deleted: wait until it is ACTIVE, then "
             "try again.";
    case ErrorKind::kValidation:
      return "DynamoDB refused the request as malformed and wrote nothing. The message names "
             "the parameter; if the table was created outside docket, check that its key "
             "schema is the one docket expects.";
    case ErrorKind::kCredentials:
      return "The AWS credentials (" + std::string(failed.credentials_source) +
             ") were refused: check that they are current (AWS_SESSION_TOKEN for temporary "
             "ones), belong to the account of the table, and that its IAM policy allows "
             "dynamodb:" +
             std::string(failed.call.operation) + " on it.";
    case ErrorKind::kThrottled:
      return "DynamoDB throttled the request on each of " +
             kit::http::attempts_text(failed.attempts) +
             "; nothing was written. Retry later, or raise the table's capacity (docket "
             "creates on-demand tables; a provisioned table made elsewhere may be too small).";
    case ErrorKind::kServerError:
      return "DynamoDB failed on its side (" + kit::http::attempts_text(failed.attempts) + ")" +
             (failed.call.replay == Replay::kSafe
                  ? "; retry later."
                  : "; the request may or may not have been applied, so it was not repeated: "
                    "check its effect before retrying.");
    case ErrorKind::kTransactionConflict:
      return "Another transaction is writing the same items: retry.";
    case ErrorKind::kTokenReused:
      return "Its ClientRequestToken was used within the last ten minutes for a different "
             "request, so DynamoDB wrote nothing: give each distinct request a token of its "
             "own.";
    case ErrorKind::kConditionalCheckFailed:
    case ErrorKind::kTransactionCanceled:
      return "A condition of the request did not hold (cancellation reasons: " +
             reasons_text(error) +
             ") where docket expected none: the table holds data docket did not write, or "
             "another writer raced it.";
    case ErrorKind::kOther:
      break;
  }
  return error.message.empty() ? "DynamoDB said no more; see its documentation of " + error.type +
                                     " for " + std::string(failed.call.operation) + "."
                               : "See DynamoDB's message above.";
}

}  // namespace

std::string describe(const Call& call, const StoreUrl& url) {
  std::string text = "DynamoDB " + std::string(call.operation);
  if (!call.table.empty()) {
    text += " on table '" + std::string(call.table) + "'";
  }
  return text + " at " + url.text;
}

void throw_service_failure(const FailedCall& failed, const ServiceError& error) {
  std::string message = describe(failed.call, failed.url) + " failed: " + error.type + " (HTTP " +
                        std::to_string(error.http_status) + ")";
  if (!error.message.empty()) {
    message += ": " + error.message;
  }
  if (!error.request_id.empty()) {
    message += " [request id " + error.request_id + "]";
  }
  message += ". " + what_to_do(failed, error);
  switch (error.kind) {
    case ErrorKind::kResourceNotFound:
    case ErrorKind::kResourceInUse:
    case ErrorKind::kCredentials:
      throw ConfigurationError(message);
    case ErrorKind::kValidation:
    case ErrorKind::kTokenReused:
      throw InvalidInputError(message);
    default:
      throw InfrastructureError(message);
  }
}

}  // namespace docket::dynamodb::detail
