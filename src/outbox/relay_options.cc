#include "docket/relay_options.h"

#include <cmath>
#include <string>

#include "docket/error.h"

namespace docket {
namespace {

void require_positive(std::string_view name, long long value, std::string_view unit) {
  if (value <= 0) {
    throw ConfigurationError("relay options: " + std::string(name) + " is " +
                             std::to_string(value) + std::string(unit) + "; it must be positive");
  }
}

}  // namespace

RelayOptions::RelayOptions(RelaySettings settings) : settings_(settings) {
  const auto& s = settings_;
  require_positive("poll_interval", s.poll_interval.count(), " us");
  require_positive("batch_size", static_cast<long long>(s.batch_size), "");
  require_positive("max_attempts", s.max_attempts, "");
  require_positive("lease", s.lease.count(), " us");
  require_positive("backoff_base", s.backoff_base.count(), " us");
  if (s.backoff_cap < s.backoff_base) {
    throw ConfigurationError(
        "relay options: backoff_cap (" + std::to_string(s.backoff_cap.count()) +
        " us) is below backoff_base (" + std::to_string(s.backoff_base.count()) +
        " us); the cap must be at least the base delay");
  }
  if (!(s.jitter >= 0.0 && s.jitter <= 1.0)) {  // also refuses NaN
    throw ConfigurationError(
        "relay options: jitter is " + std::to_string(s.jitter) +
        "; it must be within [0, 1] (0: none, 1: spread over the whole delay)");
  }
}

}  // namespace docket
