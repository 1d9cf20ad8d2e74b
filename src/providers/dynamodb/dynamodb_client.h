// Client: calls DynamoDB operations on the server a store URL names and returns their
// parsed answers. Each call is a signed POST of application/x-amz-json-1.0 with
// X-Amz-Target: DynamoDB_20120810.<operation> (AWS Signature Version 4, service
// "dynamodb", the URL's region), sent, repeated and parsed by the kit's JSON service
// client (kit/http/json_service_client.h).
//
// Errors: a kind the Call expects (by default a condition that did not hold) comes
// back as a Response; every other error is thrown as dynamodb_failure.h describes,
// naming the operation, the table and what to do.
//
// Retries (the JSON service client's loop: capped exponential backoff, full jitter):
//   throttled (ProvisionedThroughputExceeded, Throttling, RequestLimitExceeded) and
//   connections that could not be made: always, as DynamoDB applied nothing;
//   HTTP 5xx, timeouts and connections broken after sending: only Replay::kSafe calls,
//   as the request may have been applied.
//   Anything else is never repeated.
//
// Credentials are read once, at construction: for dynamodb://aws a ConfigurationError
// when none are found (kit/http/aws_credentials.h); for a server of one's own, found
// credentials or else the fixed key "docketlocal" (DynamoDB Local checks no signature,
// and takes any access key made of letters and digits only).
//
// Thread-safety: call() may be used from many threads at once; the client is
// otherwise immutable.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLIENT_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLIENT_H_

#include <nlohmann/json.hpp>

#include "providers/dynamodb/dynamodb_call.h"
#include "providers/dynamodb/dynamodb_url.h"
#include "providers/kit/http/aws_credentials.h"
#include "providers/kit/http/http_message.h"
#include "providers/kit/http/json_service_client.h"

namespace docket::dynamodb::detail {

class Client {
 public:
  // Credentials are looked up in options.environment. Throws ConfigurationError for
  // unusable options, or no credentials for the AWS service.
  explicit Client(StoreUrl url, const kit::http::JsonServiceOptions& options = {});

  // Sends `request` (the operation's JSON input) and returns its JSON output, or an
  // error of a kind call.expected names. Throws per dynamodb_failure.h otherwise, and
  // InvalidInputError when `request` holds a string that is not valid UTF-8.
  Response call(const Call& call, const nlohmann::json& request) const;

  const StoreUrl& url() const noexcept { return url_; }
  const kit::http::AwsCredentials& credentials() const noexcept { return credentials_; }

 private:
  kit::http::HttpRequest signed_request(const Call& call, const std::string& body) const;

  StoreUrl url_;
  kit::http::AwsCredentials credentials_;
  kit::http::JsonServiceClient service_;
};

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CLIENT_H_
