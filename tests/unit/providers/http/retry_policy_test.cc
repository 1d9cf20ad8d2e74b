// RetryPolicy: attempts counted and bounded, delays capped and fully jittered. The
// waits are recorded instead of slept.
#include "providers/kit/http/retry_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <vector>

#include "docket/core/error.h"

namespace docket::kit::http {
namespace retry_policy_test {

using namespace std::chrono_literals;
using std::chrono::microseconds;

struct RecordedSleeps {
  std::vector<microseconds> waits;
  RetryPolicy::Sleep sleep() {
    return [this](microseconds d) { waits.push_back(d); };
  }
};

TEST(RetryPolicy, StopsAtTheFirstOutcomeNotWorthRepeating) {
  RecordedSleeps sleeps;
  const RetryPolicy policy("test", {.max_attempts = 5}, sleeps.sleep());
  std::vector<int> attempts;
  const int outcome = policy.run(
      [&](int n) {
        attempts.push_back(n);
        return n;
      },
      [](int result) { return result < 3; });
  EXPECT_EQ(outcome, 3);
  EXPECT_EQ(attempts, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(sleeps.waits.size(), 2u);
}

TEST(RetryPolicy, GivesUpAfterMaxAttemptsWithTheLastOutcome) {
  RecordedSleeps sleeps;
  const RetryPolicy policy("test", {.max_attempts = 4}, sleeps.sleep());
  int calls = 0;
  const int outcome = policy.run([&](int n) { return ++calls, n * 10; }, [](int) { return true; });
  EXPECT_EQ(outcome, 40);
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(sleeps.waits.size(), 3u);
}

TEST(RetryPolicy, OneAttemptNeverRepeats) {
  RecordedSleeps sleeps;
  const RetryPolicy policy("test", {.max_attempts = 1}, sleeps.sleep());
  int calls = 0;
  policy.run([&](int) { return ++calls; }, [](int) { return true; });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(sleeps.waits.empty());
}

TEST(RetryPolicy, DelaysGrowExponentiallyUpToTheCapWithFullJitter) {
  const RetryPolicy policy("test", {.max_attempts = 10, .base = 10ms, .cap = 80ms});
  // Ceilings: 10, 20, 40, 80, 80, ... ms. Every delay lies in (0, ceiling]; over many
  // tokens they spread over the whole range, not just its top.
  const std::vector<microseconds> ceilings{10ms, 20ms, 40ms, 80ms, 80ms, 80ms};
  for (std::size_t n = 1; n <= ceilings.size(); ++n) {
    microseconds lowest = ceilings[n - 1];
    microseconds highest{0};
    for (int run = 0; run < 200; ++run) {
      const microseconds d = policy.delay(static_cast<int>(n), RetryPolicy::random_token());
      ASSERT_GT(d.count(), 0);
      ASSERT_LE(d, ceilings[n - 1]);
      lowest = std::min(lowest, d);
      highest = std::max(highest, d);
    }
    EXPECT_LT(lowest, ceilings[n - 1] / 4) << "attempt " << n;
    EXPECT_GT(highest, ceilings[n - 1] * 3 / 4) << "attempt " << n;
  }
}

TEST(RetryPolicy, EachRunDrawsItsOwnJitter) {
  std::set<std::string> tokens;
  for (int i = 0; i < 50; ++i) {
    tokens.insert(RetryPolicy::random_token());
  }
  EXPECT_EQ(tokens.size(), 50u);
  EXPECT_EQ(tokens.begin()->size(), 16u);

  std::set<microseconds::rep> first_waits;
  for (int run = 0; run < 20; ++run) {
    RecordedSleeps sleeps;
    const RetryPolicy policy("test", {.max_attempts = 2, .base = 1s, .cap = 1s}, sleeps.sleep());
    policy.run([](int n) { return n; }, [](int) { return true; });
    ASSERT_EQ(sleeps.waits.size(), 1u);
    first_waits.insert(sleeps.waits.front().count());
  }
  EXPECT_GT(first_waits.size(), 10u);
}

TEST(RetryPolicy, RefusesSettingsThatCannotWork) {
  EXPECT_THAT([] { RetryPolicy("DynamoDB client", {.max_attempts = 0}); },
              ::testing::ThrowsMessage<ConfigurationError>(::testing::AllOf(
                  ::testing::HasSubstr("DynamoDB client"), ::testing::HasSubstr("max_attempts"))));
  EXPECT_THROW(RetryPolicy("t", {.base = 0us}), ConfigurationError);
  EXPECT_THROW(RetryPolicy("t", {.base = 2ms, .cap = 1ms}), ConfigurationError);
}

}  // namespace retry_policy_test
}  // namespace docket::kit::http
