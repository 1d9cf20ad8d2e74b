#include "providers/firestore/firestore_client.h"

#include <optional>
#include <utility>

#include "docket/core/error.h"
#include "providers/firestore/firestore_failure.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/kit/http/json_body.h"

namespace docket::firestore::detail {
namespace {

using kit::http::ErrorEffect;

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

kit::http::JsonServer server_of(const StoreUrl& url) {
  return {.service = "Firestore",
          .endpoint = url.endpoint,
          .connect_advice = url.googleapis
                                ? "Check the network path to firestore.googleapis.com."
                                : "Is the server running there? Check host and port in the "
                                  "store URL (scripts/firestore-start.sh starts the emulator "
                                  "for docket's tests)."};
}

ErrorEffect effect_of(const kit::http::HttpResponse& answer, const Call& call) {
  const ServiceError error = parse_service_error(answer.status, answer.body);
  switch (error.code) {
    case Code::kResourceExhausted:
      // Refused before anything was applied; over the size limit it is refused again.
      return refused_as_too_large(error) ? ErrorEffect::kFinal : ErrorEffect::kNotApplied;
    case Code::kAborted:
      // Not applied; a transaction is over, though: only its caller may run it again.
      return call.in_transaction ? ErrorEffect::kFinal : ErrorEffect::kNotApplied;
    case Code::kUnavailable:
    case Code::kInternal:
    case Code::kDeadlineExceeded:
    case Code::kUnknown:
      return ErrorEffect::kMaybeApplied;
    default:
      return ErrorEffect::kFinal;
  }
}

}  // namespace

Client::Client(StoreUrl url, const kit::http::JsonServiceOptions& options)
    : url_(std::move(url)),
      authorization_(authorization_for(url_, options.environment)),
      service_(server_of(url_), options) {}

Response Client::call(const Call& call, const nlohmann::json& request) const {
  const std::string what = describe(call, url_);
  const std::string body = kit::http::json_body(
      request, what, "Firestore strings are UTF-8, so store such bytes as bytes");
  if (body.size() > kMaxRequestBytes) {
    throw InvalidInputError(what + ": the request is " + std::to_string(body.size()) +
                            " bytes, over Firestore's limit of " +
                            std::to_string(kMaxRequestBytes) +
                            " bytes on one request; nothing was sent. Write fewer or smaller "
                            "documents at a time.");
  }
  const std::string url =
      url_.endpoint + "/v1/" + url_.database_path() + "/documents:" + std::string(call.method);
  kit::http::JsonAnswer answer = service_.call(
      {.what = what,
       .replay = call.replay,
       .request = [&](const std::string& sent) -> kit::http::HttpRequest {
         return {
             .method = "POST",
             .url = url,
             .headers = {{"Content-Type", "application/json"}, {"Authorization", authorization_}},
             .body = sent};
       },
       .effect =
           [&](const kit::http::HttpResponse& error_answer) {
             return effect_of(error_answer, call);
           }},
      body);
  if (answer.ok()) {
    return Response(std::move(answer.json()));
  }
  ServiceError error = parse_service_error(answer.error().status, answer.error().body);
  if (call.expected.contains(error.code)) {
    return Response(std::move(error));
  }
  throw_service_failure(call, url_, answer.attempts(), error);
}

}  // namespace docket::firestore::detail
