// Client: calls Firestore v1 methods (REST, JSON) on the server a store URL names and
// returns their parsed answers, sent, repeated and parsed by the kit's JSON service
// client (kit/http/json_service_client.h). Each call is a POST to
// {endpoint}/v1/{database_path}/documents:{method} (firestore_call.h).
//
// Errors: a code the Call expects (a precondition that did not hold) comes back as a
// Response; every other error is thrown as firestore_failure.h describes, naming the
// method, the collection or document and what to do.
//
// Retries (the JSON service client's loop: capped exponential backoff, full jitter):
//   RESOURCE_EXHAUSTED, ABORTED outside a transaction and connections that could not
//   be made: always, as Firestore applied nothing;
//   UNAVAILABLE, INTERNAL, DEADLINE_EXCEEDED, HTTP 5xx, timeouts and connections broken
//   after sending: only Replay::kSafe calls, as the request may have been applied.
//   ABORTED inside a transaction ends it: never repeated here (the caller re-runs the
//   transaction). Anything else is never repeated.
//
// Credentials: for firestore://googleapis an OAuth2 access token, read once at
// construction from DOCKET_FIRESTORE_ACCESS_TOKEN (`gcloud auth print-access-token`
// prints one; it lasts about an hour, so a long-lived process opens its stores anew with
// a fresh one), sent as "Authorization: Bearer <token>"; a ConfigurationError when it
// is missing. A server of one's own (the emulator) is sent "Authorization: Bearer
// owner", which the emulator reads as an administrator that its security rules do not
// restrict.
//
// Thread-safety: call() may be used from many threads at once; the client is otherwise
// immutable.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLIENT_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLIENT_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "providers/firestore/firestore_call.h"
#include "providers/firestore/firestore_url.h"
#include "providers/kit/http/json_service_client.h"

namespace docket::firestore::detail {

inline constexpr std::string_view kAccessTokenVariable = "DOCKET_FIRESTORE_ACCESS_TOKEN";

class Client {
 public:
  // The access token is looked up in options.environment. Throws ConfigurationError for
  // unusable options, or no access token for the Cloud Firestore service.
  explicit Client(StoreUrl url, const kit::http::JsonServiceOptions& options = {});

  // Sends `request` (the method's JSON input) and returns its JSON output, or an error
  // of a code call.expected names. Throws per firestore_failure.h otherwise, and
  // InvalidInputError when `request` holds a string that is not valid UTF-8.
  Response call(const Call& call, const nlohmann::json& request) const;

  const StoreUrl& url() const noexcept { return url_; }

 private:
  StoreUrl url_;
  std::string authorization_;
  kit::http::JsonServiceClient service_;
};

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CLIENT_H_
