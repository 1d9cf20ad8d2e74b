#include "providers/firestore/firestore_service_error.h"

#include <array>
#include <nlohmann/json.hpp>
#include <utility>

namespace docket::firestore::detail {
namespace {

constexpr std::array<std::pair<Code, std::string_view>, 16> kCodeNames = {{
    {Code::kCancelled, "CANCELLED"},
    {Code::kUnknown, "UNKNOWN"},
    {Code::kInvalidArgument, "INVALID_ARGUMENT"},
    {Code::kDeadlineExceeded, "DEADLINE_EXCEEDED"},
    {Code::kNotFound, "NOT_FOUND"},
    {Code::kAlreadyExists, "ALREADY_EXISTS"},
    {Code::kPermissionDenied, "PERMISSION_DENIED"},
    {Code::kResourceExhausted, "RESOURCE_EXHAUSTED"},
    {Code::kFailedPrecondition, "FAILED_PRECONDITION"},
    {Code::kAborted, "ABORTED"},
    {Code::kOutOfRange, "OUT_OF_RANGE"},
    {Code::kUnimplemented, "UNIMPLEMENTED"},
    {Code::kInternal, "INTERNAL"},
    {Code::kUnavailable, "UNAVAILABLE"},
    {Code::kDataLoss, "DATA_LOSS"},
    {Code::kUnauthenticated, "UNAUTHENTICATED"},
}};

// The code an HTTP status stands for when the body names none (Google's mapping).
Code code_of_http_status(long http_status) {
  switch (http_status) {
    case 400:
      return Code::kInvalidArgument;
    case 401:
      return Code::kUnauthenticated;
    case 403:
      return Code::kPermissionDenied;
    case 404:
      return Code::kNotFound;
    case 409:
      return Code::kAborted;
    case 429:
      return Code::kResourceExhausted;
    case 501:
      return Code::kUnimplemented;
    case 503:
      return Code::kUnavailable;
    case 504:
      return Code::kDeadlineExceeded;
    default:
      return http_status >= 500 ? Code::kInternal : Code::kOther;
  }
}

}  // namespace

std::string_view code_name(Code code) noexcept {
  for (const auto& [known, name] : kCodeNames) {
    if (known == code) {
      return name;
    }
  }
  return "OTHER";
}

Code parse_code(std::string_view status) noexcept {
  for (const auto& [code, name] : kCodeNames) {
    if (name == status) {
      return code;
    }
  }
  return Code::kOther;
}

ServiceError parse_service_error(long http_status, std::string_view body) {
  ServiceError error{.http_status = http_status};
  const nlohmann::json parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  // The emulator answers an error as one object, the service sometimes as a list of one.
  const nlohmann::json* answer = &parsed;
  if (parsed.is_array() && parsed.size() == 1) {
    answer = &parsed.front();
  }
  const auto inner = answer->is_object() ? answer->find("error") : answer->end();
  if (answer->is_object() && inner != answer->end() && inner->is_object()) {
    error.status = inner->value("status", "");
    error.message = inner->value("message", "");
  }
  if (error.status.empty()) {
    error.status = "HTTP " + std::to_string(http_status);
    error.code = code_of_http_status(http_status);
    if (error.message.empty()) {
      error.message = std::string(body.substr(0, 200));
    }
    return error;
  }
  error.code = parse_code(error.status);
  return error;
}

bool refused_as_too_large(const ServiceError& error) {
  return error.code == Code::kResourceExhausted &&
         error.message.find("exceeds maximum size") != std::string::npos;
}

}  // namespace docket::firestore::detail
