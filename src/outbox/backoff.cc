#include "docket/outbox/backoff.h"

#include "docket/core/retry_schedule.h"

namespace docket {

std::chrono::microseconds retry_delay(const RelayOptions& options, std::string_view message_id,
                                      int attempt) {
  const auto& s = options.settings();
  return RetrySchedule("relay options", s.backoff_base, s.backoff_cap, s.jitter)
      .delay(message_id, attempt);
}

}  // namespace docket
