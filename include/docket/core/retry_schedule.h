// Capped exponential backoff with deterministic jitter, for everything docket retries
// (the outbox relay's publishes, the claim runner's failed handlers):
//
//   d(n) = min(cap, base * 2^(n-1)) * (1 - jitter * u)
//
// for attempt n (1 = first failure), where u in [0, 1) is derived from the key (a
// message id) and n alone, so one message's schedule is the same on every worker and
// every run while different messages spread out. jitter 0 gives the bare exponential;
// jitter 1 spreads over (0, d], in whole microseconds: a wait is never 0.
//
// Thread-safety: an immutable value type.
#ifndef DOCKET_CORE_RETRY_SCHEDULE_H_
#define DOCKET_CORE_RETRY_SCHEDULE_H_

#include <chrono>
#include <string_view>

namespace docket {

class RetrySchedule {
 public:
  // Throws ConfigurationError naming `owner` ("relay", "claim runner"), the setting and
  // its value when base is not positive, cap is below base, or jitter is outside
  // [0, 1] (or not a number).
  RetrySchedule(std::string_view owner, std::chrono::microseconds base,
                std::chrono::microseconds cap, double jitter);

  // The wait after `attempt` failed attempts of `key`; never longer than the cap.
  // Throws InvalidInputError for attempt < 1.
  std::chrono::microseconds delay(std::string_view key, int attempt) const;

 private:
  std::chrono::microseconds base_;
  std::chrono::microseconds cap_;
  double jitter_;
};

}  // namespace docket

#endif  // DOCKET_CORE_RETRY_SCHEDULE_H_
