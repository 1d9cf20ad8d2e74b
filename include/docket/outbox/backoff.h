// The relay's retry schedule: capped exponential backoff with deterministic jitter
// (see relay_options.h for the formula).
//
// Thread-safety: pure function.
#ifndef DOCKET_OUTBOX_BACKOFF_H_
#define DOCKET_OUTBOX_BACKOFF_H_

#include <chrono>
#include <string_view>

#include "docket/outbox/relay_options.h"

namespace docket {

// The wait before the next attempt after `attempt` failed attempts (attempt >= 1) of
// the message `message_id`. Never longer than backoff_cap. Throws InvalidInputError
// for attempt < 1.
std::chrono::microseconds retry_delay(const RelayOptions& options, std::string_view message_id,
                                      int attempt);

}  // namespace docket

#endif  // DOCKET_OUTBOX_BACKOFF_H_
