#include "transports/pubsub/pubsub_client.h"

#include <optional>
#include <utility>

#include "docket/core/error.h"

namespace docket::pubsub::detail {
namespace {

using kit::http::ErrorEffect;

std::string authorization_for(const PubSubUrl& url,
                              const kit::http::EnvironmentLookup& environment) {
  if (!url.googleapis)
    return {};
  std::optional<std::string> token = environment(kAccessTokenVariable);
  if (!token || token->empty()) {
    throw ConfigurationError(
        "Pub/Sub transport " + url.text + " needs an OAuth2 access token in " +
        std::string(kAccessTokenVariable) + ", and it is not set: export " +
        std::string(kAccessTokenVariable) +
        "=$(gcloud auth print-access-token) for an account allowed to use Pub/Sub in project " +
        url.project);
  }
  return "Bearer " + *token;
}

kit::http::JsonServer server_of(const PubSubUrl& url) {
  return {.service = "Pub/Sub",
          .endpoint = url.endpoint,
          .connect_advice = url.googleapis
                                ? "Check the network path to pubsub.googleapis.com."
                                : "Is the emulator running there? Check host and port in the "
                                  "transport URL (scripts/pubsub-start.sh starts the emulator "
                                  "for docket's tests)."};
}

Answer read_error(const kit::http::HttpResponse& response) {
  Answer answer{.http_status = response.status};
  const nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
  if (body.is_object() && body.contains("error") && body["error"].is_object()) {
    answer.status = body["error"].value("status", "");
    answer.message = body["error"].value("message", "");
  } else {
    answer.message = response.body.substr(0, 200);
  }
  return answer;
}

ErrorEffect effect_of(const kit::http::HttpResponse& response) {
  if (response.status == 429)
    return ErrorEffect::kNotApplied;
  if (response.status >= 500)
    return ErrorEffect::kMaybeApplied;
  return ErrorEffect::kFinal;
}

}  // namespace

std::string Answer::error_text() const {
  return "HTTP " + std::to_string(http_status) + (status.empty() ? "" : " " + status) +
         (message.empty() ? "" : ": " + message);
}

Client::Client(PubSubUrl url, const kit::http::JsonServiceOptions& options)
    : url_(std::move(url)),
      authorization_(authorization_for(url_, options.environment)),
      service_(server_of(url_), options) {}

std::string Client::describe() const {
  return (url_.googleapis ? "Cloud Pub/Sub " : "Pub/Sub emulator at ") + url_.text;
}

Answer Client::call(std::string_view http_method, const std::string& path,
                    const nlohmann::json& request, kit::http::Replay replay,
                    std::string_view what) const {
  const std::string url = url_.endpoint + "/v1/" + path;
  const std::string body = request.is_null() ? std::string() : request.dump();
  kit::http::JsonAnswer answer = service_.call(
      {.what = what,
       .replay = replay,
       .request = [&](const std::string& sent) -> kit::http::HttpRequest {
         kit::http::HttpRequest http{.method = std::string(http_method), .url = url, .body = sent};
         http.headers.push_back({"Content-Type", "application/json"});
         if (!authorization_.empty())
           http.headers.push_back({"Authorization", authorization_});
         return http;
       },
       .effect = effect_of},
      body);
  if (answer.ok())
    return Answer{.http_status = 200, .body = std::move(answer.json())};
  return read_error(answer.error());
}

}  // namespace docket::pubsub::detail
