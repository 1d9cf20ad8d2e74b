// JsonServiceClient: the call loop every document provider's client shares (DynamoDB's,
// Firestore's, and Cosmos DB's to come): a JSON request sent to the service over an
// HttpClient, which keeps connections alive between calls, repeated per a RetryPolicy
// (capped exponential backoff, full jitter) where that is safe, and its answer parsed.
// The provider keeps what is its own: how a request is addressed and signed, how its
// error answers read, and what its failures mean.
//
// Repeated, within RetryOptions::max_attempts:
//   a request that was provably not applied: a connection that could not be made, or an
//   error answer the service's ErrorEffect calls kNotApplied (throttled): always;
//   a request that may have been applied: a timeout or a connection broken after
//   sending, an error answer of kMaybeApplied (a server error): only Replay::kSafe calls;
//   anything else (an HTTP 200, an error answer of kFinal): never.
//
// What comes back is the JSON of an HTTP 200, or the last error answer (any other
// status), for the provider to read. Thrown here, each naming the call (JsonCall::what):
//   InfrastructureError  no answer after the attempts (transport_failure_text.h, with
//                        the server's connect advice), or an HTTP 200 whose body is not
//                        JSON (an endpoint that is not the service).
//
// Thread-safety: call() may be used from many threads at once; the client is otherwise
// immutable.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_JSON_SERVICE_CLIENT_H_
#define DOCKET_PROVIDERS_KIT_HTTP_JSON_SERVICE_CLIENT_H_

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>

#include "providers/kit/http/environment_lookup.h"
#include "providers/kit/http/http_client.h"
#include "providers/kit/http/http_message.h"
#include "providers/kit/http/replay.h"
#include "providers/kit/http/retry_policy.h"

namespace docket::kit::http {

// A client's settings, as a provider's store or a test gives them.
struct JsonServiceOptions {
  HttpClientOptions http{};
  RetryOptions retry{};
  // Where the service's credentials are looked up (the process environment unless a test
  // says).
  EnvironmentLookup environment = process_environment;
};

// The server one client calls, for its messages.
struct JsonServer {
  // "DynamoDB": the client is the "DynamoDB client" of option errors, and an answer that
  // is not JSON asks whether the endpoint is a DynamoDB server.
  std::string service;
  // "http://127.0.0.1:8000/": where a connection that failed was to go.
  std::string endpoint;
  // What to check when no connection could be made ("Is the server running there? ...").
  std::string connect_advice;
};

// What an error answer says of the request it answers, for repeating it.
enum class ErrorEffect : std::uint8_t {
  kFinal,         // sent again it would be refused again (malformed, a condition that failed)
  kNotApplied,    // refused before anything was applied, and may pass later (throttled)
  kMaybeApplied,  // the server failed, maybe after applying it (HTTP 5xx)
};

// One call, as the provider describes it.
struct JsonCall {
  // "DynamoDB PutItem on table 'app_inbox' at dynamodb://...": begins every message
  // about the call.
  std::string_view what;
  Replay replay = Replay::kUnsafe;
  // The request of one attempt, carrying `body`; made anew for each (a signature is
  // dated).
  std::function<HttpRequest(const std::string& body)> request;
  // What an error answer (any status but 200) says of the request.
  std::function<ErrorEffect(const HttpResponse& answer)> effect;
};

// How a call ended when it got an answer: the JSON of an HTTP 200, or the last error
// answer, after `attempts` attempts.
class JsonAnswer {
 public:
  JsonAnswer(std::variant<nlohmann::json, HttpResponse> answer, int attempts)
      : answer_(std::move(answer)), attempts_(attempts) {}

  bool ok() const noexcept { return std::holds_alternative<nlohmann::json>(answer_); }
  // Only when ok().
  nlohmann::json& json() { return std::get<nlohmann::json>(answer_); }
  // Only when !ok().
  const HttpResponse& error() const { return std::get<HttpResponse>(answer_); }
  int attempts() const noexcept { return attempts_; }

 private:
  std::variant<nlohmann::json, HttpResponse> answer_;
  int attempts_;
};

class JsonServiceClient {
 public:
  // Throws ConfigurationError naming "<service> client" and the setting for unusable
  // options.
  JsonServiceClient(JsonServer server, const JsonServiceOptions& options);

  // Sends `body` (JSON, written by json_body.h) as `call` says, repeating it as the
  // header comment says, and returns the answer. Throws as the header comment says.
  JsonAnswer call(const JsonCall& call, const std::string& body) const;

  const JsonServer& server() const noexcept { return server_; }

 private:
  bool worth_repeating(const HttpResult& result, const JsonCall& call) const;

  JsonServer server_;
  HttpClient http_;
  RetryPolicy retry_;
};

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_JSON_SERVICE_CLIENT_H_
