#include "providers/firestore/firestore_client.h"

#include <optional>
#include <utility>
#include <variant>

#include "docket/core/error.h"
#include "providers/firestore/firestore_failure.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/kit/http/json_body.h"

namespace docket::firestore {
namespace {

using kit::http::HttpResponse;
using kit::http::HttpResult;
using kit::http::TransportFailure;

constexpr std::string_view kFirestoreOwner = "Firestore client";

std::string authorization_for(const StoreUrl& url,
                              const kit::http::EnvironmentLookup& environment) {
  if (!url.googleapis) {
    return "Bearer owner";
  }
  std::optional<std::string> token = environment(kAccessTokenVariable);
  if (!token || token->empty()) {
    throw ConfigurationError(
        "Firestore store at " + url.text + " needs an OAuth2 access token in " +
        std::string(kAccessTokenVariable) +
        ", and it is not set: export DOCKET_FIRESTORE_ACCESS_TOKEN=$(gcloud auth "
        "print-access-token) for an account allowed to use Cloud Firestore in project " +
        url.project);
  }
  return "Bearer " + *token;
}

bool firestore_worth_repeating(const HttpResult& result, const Call& call) {
  const bool safe = call.replay == Replay::kSafe;
  if (const auto* failure = std::get_if<TransportFailure>(&result)) {
    return failure->request_unsent || safe;
  }
  const auto& response = std::get<HttpResponse>(result);
  if (response.status == 200) {
    return false;
  }
  const ServiceError error = parse_service_error(response.status, response.body);
  switch (error.code) {
    case Code::kResourceExhausted:
      // Refused before anything was applied; over the size limit it is refused again.
      return !refused_as_too_large(error);
    case Code::kAborted:
      return !call.in_transaction;  // not applied; a transaction is over, though
    case Code::kUnavailable:
    case Code::kInternal:
    case Code::kDeadlineExceeded:
    case Code::kUnknown:
      return safe;
    default:
      return false;
  }
}

}  // namespace

Client::Client(StoreUrl url, ClientOptions options)
    : url_(std::move(url)),
      authorization_(authorization_for(url_, options.environment)),
      http_(kFirestoreOwner, options.http),
      retry_(kFirestoreOwner, options.retry) {}

Response Client::call(const Call& call, const nlohmann::json& request) const {
  std::string body = kit::http::json_body(
      request, describe(call, url_), "Firestore strings are UTF-8, so store such bytes as bytes");
  if (body.size() > kMaxRequestBytes) {
    throw InvalidInputError(describe(call, url_) + ": the request is " +
                            std::to_string(body.size()) + " bytes, over Firestore's limit of " +
                            std::to_string(kMaxRequestBytes) +
                            " bytes on one request; nothing was sent. Write fewer or smaller "
                            "documents at a time.");
  }
  const kit::http::HttpRequest http_request{
      .method = "POST",
      .url =
          url_.endpoint + "/v1/" + url_.database_path() + "/documents:" + std::string(call.method),
      .headers = {{"Content-Type", "application/json"}, {"Authorization", authorization_}},
      .body = std::move(body)};
  int attempts = 0;
  HttpResult result = retry_.run(
      [&](int n) {
        attempts = n;
        return http_.send(http_request);
      },
      [&](const HttpResult& outcome) { return firestore_worth_repeating(outcome, call); });

  const FailedCall failed{call, url_, attempts};
  if (const auto* failure = std::get_if<TransportFailure>(&result)) {
    throw_transport_failure(failed, *failure);
  }
  auto& response = std::get<HttpResponse>(result);
  if (response.status == 200) {
    nlohmann::json parsed =
        nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
      throw InfrastructureError(
          describe(call, url_) + " answered HTTP 200 with a body that is not JSON (" +
          response.body.substr(0, 200) + "); is the store URL's endpoint a Firestore server?");
    }
    return Response(std::move(parsed));
  }
  ServiceError error = parse_service_error(response.status, response.body);
  if (call.expected.contains(error.code)) {
    return Response(std::move(error));
  }
  throw_service_failure(failed, error);
}

}  // namespace docket::firestore
