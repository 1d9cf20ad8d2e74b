#include "providers/firestore/firestore_failure.h"

#include "docket/core/error.h"
#include "providers/kit/http/transport_failure_text.h"

namespace docket::firestore::detail {
namespace {

std::string firestore_advice(const Call& call, const StoreUrl& url, int attempts,
                             const ServiceError& error) {
  const bool safe = call.replay == Replay::kSafe;
  switch (error.code) {
    case Code::kUnauthenticated:
    case Code::kPermissionDenied:
      return url.googleapis
                 ? "The access token in DOCKET_FIRESTORE_ACCESS_TOKEN was refused: give a "
                   "current one (`gcloud auth print-access-token`) for an account allowed to "
                   "use Cloud Firestore in project " +
                       url.project + "."
                 : "The server refused the request's credentials: is it the Firestore "
                   "emulator? Its security rules may deny docket's collections.";
    case Code::kNotFound:
      return "Firestore found no database " + url.database + " in project " + url.project +
             ": check project and database in the store URL.";
    case Code::kInvalidArgument:
    case Code::kOutOfRange:
      return "Firestore refused the request as malformed and wrote nothing. The message names "
             "what it refused.";
    case Code::kResourceExhausted:
      if (refused_as_too_large(error)) {
        return "The request is larger than the server takes in one request (the Cloud "
               "Firestore emulator takes 4 MiB, the service 10 MiB); nothing was written. "
               "Write fewer or smaller documents at a time.";
      }
      return "Firestore refused the request for quota or rate on each of " +
             kit::http::attempts_text(attempts) + "; nothing was written. Retry later.";
    case Code::kAborted:
      return call.in_transaction
                 ? "Another transaction holds the same documents and this one was aborted; "
                   "nothing was written. Run it again from its reads."
                 : "Firestore aborted the request for contention on each of " +
                       kit::http::attempts_text(attempts) + "; nothing was written. Retry later.";
    case Code::kFailedPrecondition:
      return "A precondition of the request did not hold where docket expected none (or the "
             "query needs an index: the message says which): the collection holds data docket "
             "did not write, or another writer raced it.";
    case Code::kUnavailable:
    case Code::kInternal:
    case Code::kDeadlineExceeded:
    case Code::kUnknown:
      return "Firestore failed on its side (" + kit::http::attempts_text(attempts) + ")" +
             (safe ? "; retry later."
                   : "; the request may or may not have been applied, so it was not repeated: "
                     "check its effect before retrying.");
    default:
      return "See Firestore's message above.";
  }
}

}  // namespace

std::string describe(const Call& call, const StoreUrl& url) {
  std::string text = "Firestore " + std::string(call.method);
  if (!call.target.empty()) {
    text += " on " + std::string(call.target);
  }
  return text + " at " + url.text;
}

void throw_service_failure(const Call& call, const StoreUrl& url, int attempts,
                           const ServiceError& error) {
  std::string message = describe(call, url) + " failed: " + error.status + " (HTTP " +
                        std::to_string(error.http_status) + ")";
  if (!error.message.empty()) {
    message += ": " + error.message;
  }
  message += ". " + firestore_advice(call, url, attempts, error);
  switch (error.code) {
    case Code::kUnauthenticated:
    case Code::kPermissionDenied:
    case Code::kUnimplemented:
    case Code::kNotFound:
      throw ConfigurationError(message);
    case Code::kInvalidArgument:
    case Code::kOutOfRange:
      throw InvalidInputError(message);
    case Code::kResourceExhausted:
      if (refused_as_too_large(error)) {
        throw InvalidInputError(message);
      }
      throw InfrastructureError(message);
    default:
      throw InfrastructureError(message);
  }
}

}  // namespace docket::firestore::detail
