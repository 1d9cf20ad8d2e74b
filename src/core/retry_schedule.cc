#include "docket/core/retry_schedule.h"

#include <algorithm>
#include <string>

#include "core/stable_hash.h"
#include "docket/core/error.h"

namespace docket {

RetrySchedule::RetrySchedule(std::string_view owner, std::chrono::microseconds base,
                             std::chrono::microseconds cap, double jitter)
    : base_(base), cap_(cap), jitter_(jitter) {
  const std::string who(owner);
  if (base.count() <= 0) {
    throw ConfigurationError(who + ": backoff_base is " + std::to_string(base.count()) +
                             " us; it must be positive");
  }
  if (cap < base) {
    throw ConfigurationError(who + ": backoff_cap (" + std::to_string(cap.count()) +
                             " us) is below backoff_base (" + std::to_string(base.count()) +
                             " us); the cap must be at least the base delay");
  }
  if (!(jitter >= 0.0 && jitter <= 1.0)) {  // also refuses NaN
    throw ConfigurationError(who + ": jitter is " + std::to_string(jitter) +
                             "; it must be within [0, 1] (0: none, 1: spread over the whole "
                             "delay)");
  }
}

std::chrono::microseconds RetrySchedule::delay(std::string_view key, int attempt) const {
  if (attempt < 1) {
    throw InvalidInputError("retry delay: attempt is " + std::to_string(attempt) +
                            "; pass the number of failed attempts so far (1 or more)");
  }
  // Doubling stops at the cap, so the product never overflows.
  std::chrono::microseconds delay = base_;
  for (int n = 1; n < attempt && delay < cap_; ++n) {
    delay = delay > cap_ / 2 ? cap_ : delay * 2;
  }
  delay = std::min(delay, cap_);
  const double u =
      core::unit_interval(core::stable_hash(0x6a17, key, static_cast<std::uint64_t>(attempt)));
  const double scaled = static_cast<double>(delay.count()) * (1.0 - jitter_ * u);
  // Truncating to whole microseconds could turn a draw near the top of the jitter into
  // no wait at all; a schedule that waits waits at least a microsecond.
  const auto micros = static_cast<std::chrono::microseconds::rep>(scaled);
  return std::chrono::microseconds(delay.count() > 0 ? std::max<std::int64_t>(micros, 1) : 0);
}

}  // namespace docket
