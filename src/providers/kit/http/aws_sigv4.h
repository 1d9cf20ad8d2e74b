// AWS Signature Version 4 (the "AWS4-HMAC-SHA256" Authorization header), as AWS
// documents it and its published test suite checks it:
//
//   canonical request  METHOD \n URI \n QUERY \n HEADERS \n SIGNED-HEADERS \n sha256(payload)
//   string to sign     AWS4-HMAC-SHA256 \n yyyymmddThhmmssZ \n scope \n sha256(canonical request)
//   scope              yyyymmdd/region/service/aws4_request
//   signing key        HMAC("AWS4" + secret, date) -> region -> service -> "aws4_request"
//   signature          hex(HMAC(signing key, string to sign))
//
// The URI path and the query names and values are percent-encoded as RFC 3986 says
// (unreserved bytes kept, '/' kept between path segments), the query sorted by name
// then value; header names are lower-cased, values trimmed with inner runs of spaces
// collapsed, repeated headers joined with ',' in order, and all sorted by name.
// The signer owns X-Amz-Date and X-Amz-Security-Token (the session token, signed like
// any header, as the AWS SDKs do) and returns them with the Authorization header.
//
// DynamoDB Local checks no signature; the published vectors in the unit tests are what
// prove this code right.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_AWS_SIGV4_H_
#define DOCKET_PROVIDERS_KIT_HTTP_AWS_SIGV4_H_

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "providers/kit/http/aws_credentials.h"
#include "providers/kit/http/http_message.h"
#include "providers/kit/http/sha256.h"

namespace docket::kit::http {

// What is signed of a request. Views: the caller's strings outlive the call.
struct SigV4Request {
  std::string_view method{};    // "POST"
  std::string_view path = "/";  // not yet percent-encoded
  // Not yet percent-encoded; any order, names may repeat.
  std::vector<std::pair<std::string, std::string>> query{};
  // Every header to sign, Host included, as they will be sent. Not X-Amz-Date,
  // X-Amz-Security-Token or Authorization: the signer adds those.
  std::vector<HttpHeader> headers{};
  std::string_view payload{};
};

struct SigV4Scope {
  std::string region{};   // "us-east-1"
  std::string service{};  // "dynamodb"
};

struct SigV4Signature {
  std::string canonical_request{};
  std::string string_to_sign{};
  std::string signature{};  // 64 lower-case hex digits
  // To add to the request: X-Amz-Date, X-Amz-Security-Token (with a session token)
  // and Authorization.
  std::vector<HttpHeader> headers{};
};

// Throws InvalidInputError when `request` carries a header the signer owns, has no
// Host header, or a header name that is empty or holds a character HTTP forbids.
SigV4Signature sign_sigv4(const SigV4Request& request, const AwsCredentials& credentials,
                          const SigV4Scope& scope, std::chrono::system_clock::time_point now);

// The steps, for the tests that check each against the published vectors.
std::string sigv4_amz_date(std::chrono::system_clock::time_point now);  // 20150830T123600Z
Sha256Digest sigv4_signing_key(std::string_view secret_access_key, std::string_view date,
                               const SigV4Scope& scope);

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_AWS_SIGV4_H_
