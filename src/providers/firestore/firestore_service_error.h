// A Firestore error answer, parsed: Google's canonical status code, named by the
// body's error.status, and its message.
//
//   {"error":{"code":400,"message":"the stored version ... does not match the required
//    base version ...","status":"FAILED_PRECONDITION"}}
//
// The code is what docket branches on: expected outcomes (a precondition that did not
// hold) come back to the caller as values, the rest becomes an exception
// (firestore_failure.h), and contention, throttling and unavailability are what the
// client repeats where that is safe (firestore_client.h).
//
// Thread-safety: plain values and pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SERVICE_ERROR_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SERVICE_ERROR_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "providers/kit/http/error_set.h"

namespace docket::firestore::detail {

// google.rpc.Code, the ones Firestore answers with.
enum class Code : std::uint8_t {
  kCancelled,
  kUnknown,
  kInvalidArgument,     // a malformed request, a reserved or too long id: nothing written
  kDeadlineExceeded,    // may or may not have been applied
  kNotFound,            // no such document (an update with exists: true), or database
  kAlreadyExists,       // a create (exists: false) of a document that exists
  kPermissionDenied,    // the token may not do this
  kResourceExhausted,   // quota or rate exceeded: not applied
  kFailedPrecondition,  // a precondition (updateTime) did not hold; or a missing index
  kAborted,             // contention: a transaction lost, or a commit was aborted; not applied
  kOutOfRange,
  kUnimplemented,
  kInternal,     // may or may not have been applied
  kUnavailable,  // the service could not be reached; may or may not have been applied
  kDataLoss,
  kUnauthenticated,  // no token, or an expired one
  kOther,            // a status Firestore does not document, or an answer that is no JSON
};

// "FAILED_PRECONDITION"
std::string_view code_name(Code code) noexcept;
// The inverse of code_name(); kOther for any other text.
Code parse_code(std::string_view status) noexcept;

struct ServiceError {
  long http_status = 0;
  Code code = Code::kOther;
  std::string status{};  // as the body named it: "FAILED_PRECONDITION", or "HTTP 502"
  std::string message{};
};

// Parses an error answer. A body that is not the JSON Firestore sends (a proxy's HTML
// page, an empty body) still yields an error: its status is "HTTP <status>", its code
// from the HTTP status where one fits, and its message the body's start.
ServiceError parse_service_error(long http_status, std::string_view body);

// True for the RESOURCE_EXHAUSTED a server answers to a request over its size limit (the
// emulator's "gRPC message exceeds maximum size"): refused every time it is sent, unlike
// quota or rate, so never worth repeating.
bool refused_as_too_large(const ServiceError& error);

// A set of codes, e.g. those a call expects back as values.
using Codes = kit::http::ErrorSet<Code>;

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_SERVICE_ERROR_H_
