// RetryPolicy: how a document provider repeats a request that failed in a way worth
// repeating (throttled, a server error, a connection that could not be made):
// capped exponential backoff with full jitter, and a bound on the attempts.
//
// The delay after the n-th failed attempt is uniform over (0, min(cap, base * 2^(n-1))]
// ("full jitter"): docket::RetrySchedule with jitter 1, keyed by a random token drawn
// once per run, so that clients throttled together spread out instead of returning
// together. What is worth repeating is the caller's predicate: only the provider knows
// which failures leave a request unapplied, and which requests are safe to apply twice.
//
// Thread-safety: immutable after construction; run() may be called from many threads
// (the sleep function, when one is given, must allow that too).
#ifndef DOCKET_PROVIDERS_KIT_HTTP_RETRY_POLICY_H_
#define DOCKET_PROVIDERS_KIT_HTTP_RETRY_POLICY_H_

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>

#include "docket/core/retry_schedule.h"

namespace docket::kit::http {

struct RetryOptions {
  // Attempts in all, the first one included; 1 never repeats.
  int max_attempts = 5;
  std::chrono::microseconds base{25'000};
  std::chrono::microseconds cap{2'000'000};
};

class RetryPolicy {
 public:
  using Sleep = std::function<void(std::chrono::microseconds)>;

  // Throws ConfigurationError naming `owner` ("DynamoDB client") and the setting when
  // max_attempts is below 1, base is not positive or cap is below base. `sleep` waits
  // between attempts (std::this_thread::sleep_for when empty).
  explicit RetryPolicy(std::string_view owner, RetryOptions options = {}, Sleep sleep = {});

  // Calls attempt(n) for n = 1, 2, ... and returns the first outcome that
  // `worth_repeating(outcome)` rejects, or the outcome of the last allowed attempt,
  // waiting delay(n, token) between attempts.
  template <class Attempt, class WorthRepeating>
  std::invoke_result_t<Attempt&, int> run(Attempt&& attempt,
                                          WorthRepeating&& worth_repeating) const {
    const std::string token = random_token();
    for (int n = 1;; ++n) {
      auto outcome = attempt(n);
      if (n >= options_.max_attempts || !worth_repeating(outcome)) {
        return outcome;
      }
      sleep_(delay(n, token));
    }
  }

  // The wait after `failed_attempts` failures (>= 1) of the run keyed by `token`.
  std::chrono::microseconds delay(int failed_attempts, std::string_view token) const {
    return schedule_.delay(token, failed_attempts);
  }

  const RetryOptions& options() const noexcept { return options_; }

  // 16 random hex digits: one run's jitter key.
  static std::string random_token();

 private:
  RetryOptions options_;
  RetrySchedule schedule_;
  Sleep sleep_;
};

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_RETRY_POLICY_H_
