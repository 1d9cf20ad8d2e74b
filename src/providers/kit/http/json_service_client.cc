#include "providers/kit/http/json_service_client.h"

#include <utility>

#include "docket/core/error.h"
#include "providers/kit/http/transport_failure_text.h"

namespace docket::kit::http {

JsonServiceClient::JsonServiceClient(JsonServer server, const JsonServiceOptions& options)
    : server_(std::move(server)),
      http_(server_.service + " client", options.http),
      retry_(server_.service + " client", options.retry) {}

bool JsonServiceClient::worth_repeating(const HttpResult& result, const JsonCall& call) const {
  const bool safe = call.replay == Replay::kSafe;
  if (const auto* failure = std::get_if<TransportFailure>(&result)) {
    return failure->request_unsent || safe;
  }
  const auto& response = std::get<HttpResponse>(result);
  if (response.status == 200) {
    return false;
  }
  switch (call.effect(response)) {
    case ErrorEffect::kNotApplied:
      return true;
    case ErrorEffect::kMaybeApplied:
      return safe;
    case ErrorEffect::kFinal:
      break;
  }
  return false;
}

JsonAnswer JsonServiceClient::call(const JsonCall& call, const std::string& body) const {
  int attempts = 0;
  HttpResult result = retry_.run(
      [&](int n) {
        attempts = n;
        return http_.send(call.request(body));
      },
      [&](const HttpResult& outcome) { return worth_repeating(outcome, call); });

  if (const auto* failure = std::get_if<TransportFailure>(&result)) {
    throw InfrastructureError(
        std::string(call.what) + " failed after " + attempts_text(attempts) + ": " +
        describe_transport_failure(*failure, server_.endpoint, server_.connect_advice,
                                   call.replay == Replay::kSafe));
  }
  auto& response = std::get<HttpResponse>(result);
  if (response.status != 200) {
    return JsonAnswer(std::move(response), attempts);
  }
  nlohmann::json parsed = nlohmann::json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    throw InfrastructureError(std::string(call.what) +
                              " answered HTTP 200 with a body that is not JSON (" +
                              response.body.substr(0, 200) + "); is the store URL's endpoint a " +
                              server_.service + " server?");
  }
  return JsonAnswer(std::move(parsed), attempts);
}

}  // namespace docket::kit::http
