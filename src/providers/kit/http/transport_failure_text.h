// The words every document provider's client uses for a call that got no answer, so
// that DynamoDB's and Firestore's messages say the same thing the same way.
//
// Internal to docket. Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_TRANSPORT_FAILURE_TEXT_H_
#define DOCKET_PROVIDERS_KIT_HTTP_TRANSPORT_FAILURE_TEXT_H_

#include <string>
#include <string_view>

#include "providers/kit/http/http_message.h"

namespace docket::kit::http {

// "1 attempt", "3 attempts".
std::string attempts_text(int attempts);

// What happened to a call to `endpoint` that got no answer, after "... failed after N
// attempts: ": the failure and libcurl's detail, `connect_advice` where no connection
// could be made, and, where the request reached the connection and `replay_safe` is
// false, that it may have been applied and so was not repeated.
std::string describe_transport_failure(const TransportFailure& failure, std::string_view endpoint,
                                       std::string_view connect_advice, bool replay_safe);

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_TRANSPORT_FAILURE_TEXT_H_
