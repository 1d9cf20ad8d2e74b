// Client: calls Pub/Sub v1 REST methods on the server a pubsub:// URL names and returns
// their answers, sent, repeated and parsed by the kit's JSON service client
// (providers/kit/http/json_service_client.h): one HTTP client, its connections reused.
//
// Errors: an answer that is not 200 comes back as an Answer with Google's error status
// ("NOT_FOUND", "ALREADY_EXISTS", ...) for the caller to read; no answer at all (the
// server down, timeouts after the retries) is an InfrastructureError naming the call and
// the server.
//
// Retries: RESOURCE_EXHAUSTED (429) and connections that could not be made, always;
// UNAVAILABLE, INTERNAL, DEADLINE_EXCEEDED and HTTP 5xx only for Replay::kSafe calls
// (publishing, which the inbox collapses if it lands twice; acknowledgements and
// deadline changes, which are idempotent; reads and creates).
//
// Credentials: for pubsub://googleapis an OAuth2 access token read once, at
// construction, from DOCKET_PUBSUB_ACCESS_TOKEN (`gcloud auth print-access-token`), sent
// as "Authorization: Bearer <token>" and never printed; a ConfigurationError when it is
// missing. The emulator is sent no credentials.
//
// Thread-safety: call() may be used from many threads at once.
#ifndef DOCKET_TRANSPORTS_PUBSUB_PUBSUB_CLIENT_H_
#define DOCKET_TRANSPORTS_PUBSUB_PUBSUB_CLIENT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "providers/kit/http/json_service_client.h"
#include "transports/pubsub/pubsub_url.h"

namespace docket::pubsub::detail {

inline constexpr std::string_view kAccessTokenVariable = "DOCKET_PUBSUB_ACCESS_TOKEN";

struct Answer {
  long http_status = 200;
  nlohmann::json body{};  // the method's output when ok()
  std::string status{};   // Google's error status ("NOT_FOUND"); empty when ok()
  std::string message{};  // Google's error message; empty when ok()

  bool ok() const noexcept { return http_status == 200; }
  // "HTTP 404 NOT_FOUND: Topic not found"
  std::string error_text() const;
};

class Client {
 public:
  // Throws ConfigurationError when pubsub://googleapis has no access token.
  explicit Client(PubSubUrl url, const kit::http::JsonServiceOptions& options = {});

  // Sends `request` as `http_method` to {endpoint}/v1/{path} (path "projects/p/topics/t"
  // or "projects/p/topics/t:publish"); `what` begins every message about the call.
  Answer call(std::string_view http_method, const std::string& path, const nlohmann::json& request,
              kit::http::Replay replay, std::string_view what) const;

  const PubSubUrl& url() const noexcept { return url_; }
  // "Pub/Sub emulator at pubsub://..." or "Cloud Pub/Sub pubsub://googleapis?...".
  std::string describe() const;

 private:
  PubSubUrl url_;
  std::string authorization_;  // empty for the emulator
  kit::http::JsonServiceClient service_;
};

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_PUBSUB_CLIENT_H_
