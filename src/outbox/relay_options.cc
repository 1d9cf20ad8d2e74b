#include "docket/outbox/relay_options.h"

#include <string>
#include <utility>

#include "core/idle_wait.h"
#include "docket/core/error.h"
#include "docket/core/retry_schedule.h"

namespace docket {
namespace {

void require_positive(std::string_view name, long long value, std::string_view unit) {
  if (value <= 0) {
    throw ConfigurationError("relay options: " + std::string(name) + " is " +
                             std::to_string(value) + std::string(unit) + "; it must be positive");
  }
}

}  // namespace

RelayOptions::RelayOptions(RelaySettings settings, std::shared_ptr<Observer> observer)
    : settings_(settings), observer_(std::move(observer)) {
  const auto& s = settings_;
  detail::IdleWait::check("relay options", s.poll_interval, s.max_poll_interval);
  require_positive("batch_size", static_cast<long long>(s.batch_size), "");
  if (s.publish_batch_size > s.batch_size) {
    throw ConfigurationError("relay options: publish_batch_size is " +
                             std::to_string(s.publish_batch_size) + ", above batch_size " +
                             std::to_string(s.batch_size) +
                             "; a publish carries at most a claim's rows: lower it, or raise "
                             "batch_size (0 publishes a claim at once)");
  }
  require_positive("max_attempts", s.max_attempts, "");
  require_positive("lease", s.lease.count(), " us");
  // Validates the backoff settings with the messages every retry schedule uses.
  RetrySchedule("relay options", s.backoff_base, s.backoff_cap, s.jitter);
}

}  // namespace docket
