#include "providers/dynamodb/dynamodb_client.h"

#include <chrono>
#include <utility>
#include <variant>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_failure.h"
#include "providers/kit/http/aws_sigv4.h"
#include "providers/kit/http/json_body.h"

namespace docket::dynamodb {
namespace {

using kit::http::HttpResponse;
using kit::http::HttpResult;
using kit::http::TransportFailure;

constexpr std::string_view kOwner = "DynamoDB client";

kit::http::AwsCredentials credentials_for(const StoreUrl& url,
                                          const kit::http::EnvironmentLookup& environment) {
  if (url.aws) {
    return kit::http::require_aws_credentials("DynamoDB store at " + url.text, environment);
  }
  if (std::optional<kit::http::AwsCredentials> found =
          kit::http::find_aws_credentials(environment)) {
    return std::move(*found);
  }
  // DynamoDB Local accepts any key made of letters and digits only.
  return {.access_key_id = "docketlocal",
          .secret_access_key = "docketlocal",
          .session_token = {},
          .source = "none found; the fixed key docketlocal, for a server of one's own"};
}

bool worth_repeating(const HttpResult& result, Replay replay) {
  if (const auto* failure = std::get_if<TransportFailure>(&result)) {
    return failure->request_unsent || replay == Replay::kSafe;
  }
  const auto& response = std::get<HttpResponse>(result);
  if (response.status == 200) {
    return false;
  }
  if (response.status >= 500) {
    return replay == Replay::kSafe;
  }
  // Throttled requests were refused before DynamoDB applied anything.
  return parse_service_error(response.status, response.body, {}).kind == ErrorKind::kThrottled;
}

}  // namespace

Client::Client(StoreUrl url, ClientOptions options)
    : url_(std::move(url)),
      credentials_(credentials_for(url_, options.environment)),
      http_(kOwner, options.http),
      retry_(kOwner, options.retry) {}

kit::http::HttpRequest Client::signed_request(const Call& call, const std::string& body) const {
  kit::http::HttpRequest request{
      .method = "POST",
      .url = url_.endpoint,
      .headers = {{"Host", url_.host},
                  {"Content-Type", "application/x-amz-json-1.0"},
                  {"X-Amz-Target", "DynamoDB_20120810." + std::string(call.operation)}},
      .body = body};
  kit::http::SigV4Signature signature = kit::http::sign_sigv4(
      {.method = "POST", .path = "/", .query = {}, .headers = request.headers, .payload = body},
      credentials_, {.region = url_.region, .service = "dynamodb"},
      std::chrono::system_clock::now());
  for (kit::http::HttpHeader& header : signature.headers) {
    request.headers.push_back(std::move(header));
  }
  return request;
}

Response Client::call(const Call& call, const nlohmann::json& request) const {
  const std::string body =
      kit::http::json_body(request, describe(call, url_),
                           "DynamoDB strings are UTF-8, so store such bytes as binary (B)");
  int attempts = 0;
  HttpResult result = retry_.run(
      [&](int n) {
        attempts = n;
        return http_.send(signed_request(call, body));
      },
      [&](const HttpResult& outcome) { return worth_repeating(outcome, call.replay); });

  const FailedCall failed{call, url_, credentials_.source, attempts};
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
          response.body.substr(0, 200) + "); is the store URL's endpoint a DynamoDB server?");
    }
    return Response(std::move(parsed));
  }
  ServiceError error =
      parse_service_error(response.status, response.body, response.header("x-amzn-requestid"));
  if (call.expected.contains(error.kind)) {
    return Response(std::move(error));
  }
  throw_service_failure(failed, error);
}

}  // namespace docket::dynamodb
