// JsonResponse: what a document provider's call gives back: the parsed answer of a
// successful call, or an error of a kind the call expected (a condition that did not
// hold is an outcome for the caller to act on), as the service's ServiceError.
//
// Thread-safety: a plain value.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_JSON_RESPONSE_H_
#define DOCKET_PROVIDERS_KIT_HTTP_JSON_RESPONSE_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

namespace docket::kit::http {

template <class ServiceError>
class JsonResponse {
 public:
  explicit JsonResponse(nlohmann::json body) : body_(std::move(body)) {}
  explicit JsonResponse(ServiceError error) : error_(std::move(error)) {}

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

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_JSON_RESPONSE_H_
