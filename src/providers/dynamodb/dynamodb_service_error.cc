#include "providers/dynamodb/dynamodb_service_error.h"

#include <array>
#include <utility>

namespace docket::dynamodb::detail {
namespace {

struct KindOfType {
  std::string_view type;
  ErrorKind kind;
};

// Exception types (__type) and cancellation reason codes, as DynamoDB names them.
constexpr std::array kKinds{
    KindOfType{"ConditionalCheckFailedException", ErrorKind::kConditionalCheckFailed},
    KindOfType{"ConditionalCheckFailed", ErrorKind::kConditionalCheckFailed},
    KindOfType{"TransactionCanceledException", ErrorKind::kTransactionCanceled},
    KindOfType{"ResourceNotFoundException", ErrorKind::kResourceNotFound},
    KindOfType{"ResourceInUseException", ErrorKind::kResourceInUse},
    KindOfType{"ProvisionedThroughputExceededException", ErrorKind::kThrottled},
    KindOfType{"ProvisionedThroughputExceeded", ErrorKind::kThrottled},
    KindOfType{"ThrottlingException", ErrorKind::kThrottled},
    KindOfType{"ThrottlingError", ErrorKind::kThrottled},
    KindOfType{"RequestLimitExceeded", ErrorKind::kThrottled},
    KindOfType{"ValidationException", ErrorKind::kValidation},
    KindOfType{"ValidationError", ErrorKind::kValidation},
    KindOfType{"SerializationException", ErrorKind::kValidation},
    KindOfType{"UnrecognizedClientException", ErrorKind::kCredentials},
    KindOfType{"InvalidSignatureException", ErrorKind::kCredentials},
    KindOfType{"IncompleteSignatureException", ErrorKind::kCredentials},
    KindOfType{"MissingAuthenticationTokenException", ErrorKind::kCredentials},
    KindOfType{"ExpiredTokenException", ErrorKind::kCredentials},
    KindOfType{"AccessDeniedException", ErrorKind::kCredentials},
    KindOfType{"TransactionConflictException", ErrorKind::kTransactionConflict},
    KindOfType{"TransactionConflict", ErrorKind::kTransactionConflict},
    KindOfType{"IdempotentParameterMismatchException", ErrorKind::kTokenReused},
    KindOfType{"InternalServerError", ErrorKind::kServerError},
    KindOfType{"ServiceUnavailable", ErrorKind::kServerError},
};

// A field DynamoDB spells "message" or "Message" depending on the error and server.
std::string message_of(const nlohmann::json& object) {
  for (const char* name : {"message", "Message"}) {
    if (const auto it = object.find(name); it != object.end() && it->is_string()) {
      return it->get<std::string>();
    }
  }
  return {};
}

}  // namespace

ErrorKind error_kind(std::string_view type, long http_status) {
  for (const KindOfType& entry : kKinds) {
    if (entry.type == type) {
      return entry.kind;
    }
  }
  return http_status >= 500 ? ErrorKind::kServerError : ErrorKind::kOther;
}

int ServiceError::first_cancelled_item() const noexcept {
  for (std::size_t i = 0; i < cancellation_reasons.size(); ++i) {
    if (cancellation_reasons[i].code != "None") {
      return static_cast<int>(i);
    }
  }
  return -1;
}

ServiceError parse_service_error(long http_status, std::string_view body,
                                 std::string_view request_id) {
  ServiceError error;
  error.http_status = http_status;
  error.request_id = request_id;
  const nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("__type") || !parsed["__type"].is_string()) {
    error.type = "HTTP " + std::to_string(http_status);
    error.kind = error_kind({}, http_status);
    error.message = std::string(body.substr(0, 500));
    return error;
  }
  const std::string type = parsed["__type"].get<std::string>();
  error.type = type.substr(type.find('#') + 1);  // npos + 1 == 0: no '#', the whole name
  error.kind = error_kind(error.type, http_status);
  error.message = message_of(parsed);
  if (const auto item = parsed.find("Item"); item != parsed.end()) {
    error.item = *item;
  }
  if (const auto reasons = parsed.find("CancellationReasons");
      reasons != parsed.end() && reasons->is_array()) {
    for (const nlohmann::json& reason : *reasons) {
      CancellationReason parsed_reason;
      if (reason.is_object()) {
        if (const auto code = reason.find("Code"); code != reason.end() && code->is_string()) {
          parsed_reason.code = code->get<std::string>();
        }
        parsed_reason.message = message_of(reason);
        if (const auto item = reason.find("Item"); item != reason.end()) {
          parsed_reason.item = *item;
        }
      }
      error.cancellation_reasons.push_back(std::move(parsed_reason));
    }
  }
  return error;
}

}  // namespace docket::dynamodb::detail
