// The exceptions of a failed Firestore call: each names the method, what it acted on
// (collection and document) and the store URL, says what Firestore (or the connection)
// said, and what to do.
//
//   ConfigurationError   PERMISSION_DENIED, UNAUTHENTICATED, UNIMPLEMENTED, a database
//                        that is not there: the setup must change
//   InvalidInputError    INVALID_ARGUMENT, OUT_OF_RANGE: Firestore refused the request
//                        as malformed. Nothing was written
//   InfrastructureError  contention, throttling or unavailability after the client's
//                        attempts, a connection that failed, any other error: may be
//                        retried later
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_FAILURE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_FAILURE_H_

#include <string>

#include "providers/firestore/firestore_call.h"
#include "providers/firestore/firestore_service_error.h"
#include "providers/firestore/firestore_url.h"
#include "providers/kit/http/http_message.h"

namespace docket::firestore {

// What the failing call was, for its message.
struct FailedCall {
  const Call& call;
  const StoreUrl& url;
  int attempts = 1;
};

// "Firestore commit on collection 'app_inbox' at firestore://127.0.0.1:8080?project=demo"
std::string describe(const Call& call, const StoreUrl& url);

[[noreturn]] void throw_service_failure(const FailedCall& failed, const ServiceError& error);
[[noreturn]] void throw_transport_failure(const FailedCall& failed,
                                          const kit::http::TransportFailure& failure);

}  // namespace docket::firestore

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_FAILURE_H_
