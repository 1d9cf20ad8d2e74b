// RetrySchedule: the capped exponential ceilings, the same delay for a key on every
// call, full jitter that never rounds a wait down to nothing, and its refusals.
#include "docket/core/retry_schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "docket/core/error.h"

namespace docket {
namespace {

using std::chrono::microseconds;
using namespace std::chrono_literals;

TEST(RetrySchedule, WithoutJitterDoublesUpToTheCap) {
  const RetrySchedule schedule("test", 10ms, 80ms, 0.0);
  EXPECT_EQ(schedule.delay("m", 1), 10ms);
  EXPECT_EQ(schedule.delay("m", 2), 20ms);
  EXPECT_EQ(schedule.delay("m", 4), 80ms);
  EXPECT_EQ(schedule.delay("m", 1'000'000), 80ms);  // no overflow past the cap
}

TEST(RetrySchedule, AKeysDelayIsTheSameOnEveryCall) {
  const RetrySchedule schedule("test", 10ms, 80ms, 0.5);
  for (int attempt = 1; attempt <= 5; ++attempt) {
    EXPECT_EQ(schedule.delay("order-7", attempt), schedule.delay("order-7", attempt));
  }
}

// A draw near the top of full jitter scales a ceiling below one microsecond; truncated,
// it would be no wait at all. With a one-microsecond ceiling every draw is such a case.
TEST(RetrySchedule, FullJitterNeverRoundsAWaitDownToNothing) {
  const RetrySchedule tiny("test", 1us, 1us, 1.0);
  for (int i = 0; i < 1'000; ++i) {
    EXPECT_EQ(tiny.delay("m-" + std::to_string(i), 1), 1us) << i;
  }
  const RetrySchedule wide("test", 10ms, 10ms, 1.0);
  for (int i = 0; i < 1'000; ++i) {
    const microseconds d = wide.delay("m-" + std::to_string(i), 1);
    EXPECT_GE(d, 1us) << i;
    EXPECT_LE(d, 10ms) << i;
  }
}

TEST(RetrySchedule, RefusesUnusableSettingsAndAttempts) {
  EXPECT_THROW(RetrySchedule("test", 0us, 1ms, 0.5), ConfigurationError);
  EXPECT_THROW(RetrySchedule("test", 2ms, 1ms, 0.5), ConfigurationError);
  EXPECT_THROW(RetrySchedule("test", 1ms, 2ms, 1.5), ConfigurationError);
  EXPECT_THROW(RetrySchedule("test", 1ms, 2ms, std::nan("")), ConfigurationError);
  EXPECT_THROW(RetrySchedule("test", 1ms, 2ms, 0.5).delay("m", 0), InvalidInputError);
}

}  // namespace
}  // namespace docket
