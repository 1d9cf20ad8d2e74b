// The exceptions of a failed Firestore call: each names the method, what it acted on
// (collection and document) and the store URL, says what Firestore (or the connection)
// said, and what to do.
//
//   ConfigurationError   PERMISSION_DENIED, UNAUTHENTICATED, UNIMPLEMENTED, a database
//                        that is not there: the setup must change
//   InvalidInputError    INVALID_ARGUMENT, OUT_OF_RANGE: Firestore refused the request
//                        as malformed. Nothing was written
//   InfrastructureError  contention, throttling or unavailability after the client's
//                        attempts, any other error: may be retried later (a connection
//                        that failed is the JSON service client's to report,
//                        kit/http/json_service_client.h)
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_FAILURE_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_FAILURE_H_

#include <string>

#include "providers/firestore/firestore_call.h"
#include "providers/firestore/firestore_service_error.h"
#include "providers/firestore/firestore_url.h"

namespace docket::firestore::detail {

// "Firestore commit on collection 'app_inbox' at firestore://127.0.0.1:8080?project=demo"
std::string describe(const Call& call, const StoreUrl& url);

// Throws the exception of `error`, the answer to `call` on `url` after `attempts` attempts.
[[noreturn]] void throw_service_failure(const Call& call, const StoreUrl& url, int attempts,
                                        const ServiceError& error);

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_FAILURE_H_
