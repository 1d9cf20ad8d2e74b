#include "providers/kit/http/transport_failure_text.h"

namespace docket::kit::http {

std::string attempts_text(int attempts) {
  return attempts == 1 ? "1 attempt" : std::to_string(attempts) + " attempts";
}

std::string describe_transport_failure(const TransportFailure& failure, std::string_view endpoint,
                                       std::string_view connect_advice, bool replay_safe) {
  std::string text;
  switch (failure.kind) {
    case TransportFailure::Kind::kConnect:
      text = "could not connect to " + std::string(endpoint) + " (" + failure.detail + "). " +
             std::string(connect_advice);
      break;
    case TransportFailure::Kind::kTimeout:
      text = "no answer in time (" + failure.detail + ").";
      break;
    case TransportFailure::Kind::kBroken:
      text = "the connection failed (" + failure.detail + ").";
      break;
  }
  if (!failure.request_unsent && !replay_safe) {
    text +=
        " The request may or may not have been applied, so it was not repeated: check "
        "its effect before retrying.";
  }
  return text;
}

}  // namespace docket::kit::http
