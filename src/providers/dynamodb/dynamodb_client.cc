#include "providers/dynamodb/dynamodb_client.h"

#include <chrono>
#include <utility>

#include "providers/dynamodb/dynamodb_failure.h"
#include "providers/kit/http/aws_sigv4.h"
#include "providers/kit/http/json_body.h"

namespace docket::dynamodb::detail {
namespace {

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

kit::http::JsonServer server_of(const StoreUrl& url) {
  return {.service = "DynamoDB",
          .endpoint = url.endpoint,
          .connect_advice = url.aws ? "Check the network path to AWS and the region."
                                    : "Is the server running there? Check host and port in the "
                                      "store URL (scripts/dynamodb-start.sh starts DynamoDB "
                                      "Local for docket's tests)."};
}

kit::http::ErrorEffect effect_of(const kit::http::HttpResponse& answer) {
  if (answer.status >= 500) {
    return kit::http::ErrorEffect::kMaybeApplied;
  }
  // Throttled requests were refused before DynamoDB applied anything.
  return parse_service_error(answer.status, answer.body, {}).kind == ErrorKind::kThrottled
             ? kit::http::ErrorEffect::kNotApplied
             : kit::http::ErrorEffect::kFinal;
}

}  // namespace

Client::Client(StoreUrl url, const kit::http::JsonServiceOptions& options)
    : url_(std::move(url)),
      credentials_(credentials_for(url_, options.environment)),
      service_(server_of(url_), options) {}

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
  const std::string what = describe(call, url_);
  kit::http::JsonAnswer answer = service_.call(
      {.what = what,
       .replay = call.replay,
       .request = [&](const std::string& body) { return signed_request(call, body); },
       .effect = effect_of},
      kit::http::json_body(request, what,
                           "DynamoDB strings are UTF-8, so store such bytes as binary (B)"));
  if (answer.ok()) {
    return Response(std::move(answer.json()));
  }
  const kit::http::HttpResponse& response = answer.error();
  ServiceError error =
      parse_service_error(response.status, response.body, response.header("x-amzn-requestid"));
  if (call.expected.contains(error.kind)) {
    return Response(std::move(error));
  }
  throw_service_failure({call, url_, credentials_.source, answer.attempts()}, error);
}

}  // namespace docket::dynamodb::detail
