// Relay options are validated at construction; the retry schedule is capped,
// exponential and deterministically jittered by message id.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "docket/core/error.h"
#include "docket/outbox/backoff.h"
#include "docket/outbox/relay_options.h"

namespace docket {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::seconds;

TEST(RelayOptions, DefaultsAreValid) {
  EXPECT_NO_THROW(RelayOptions());
}

TEST(RelayOptions, RefusesNonPositiveSettingsNamingThem) {
  auto refused = [](RelaySettings s, const std::string& name) {
    try {
      RelayOptions options(s);
      ADD_FAILURE() << name << " accepted";
    } catch (const ConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  refused({.poll_interval = microseconds(0)}, "poll_interval");
  refused({.batch_size = 0}, "batch_size");
  refused({.batch_size = 10, .publish_batch_size = 11}, "publish_batch_size");
  refused({.max_attempts = 0}, "max_attempts");
  refused({.max_attempts = -1}, "max_attempts");
  refused({.lease = seconds(-1)}, "lease");
  refused({.backoff_base = microseconds(0)}, "backoff_base");
  refused({.backoff_base = seconds(10), .backoff_cap = seconds(9)}, "backoff_cap");
  refused({.jitter = -0.01}, "jitter");
  refused({.jitter = 1.01}, "jitter");
  refused({.jitter = std::numeric_limits<double>::quiet_NaN()}, "jitter");
  EXPECT_NO_THROW(RelayOptions({.backoff_base = seconds(5), .backoff_cap = seconds(5)}));
  EXPECT_NO_THROW(RelayOptions({.jitter = 1.0}));
  EXPECT_NO_THROW(RelayOptions({.batch_size = 10, .publish_batch_size = 10}));
}

TEST(RetryDelay, DoublesFromTheBaseUpToTheCapWithoutJitter) {
  const RelayOptions options(
      {.backoff_base = milliseconds(100), .backoff_cap = seconds(1), .jitter = 0});
  EXPECT_EQ(retry_delay(options, "m", 1), milliseconds(100));
  EXPECT_EQ(retry_delay(options, "m", 2), milliseconds(200));
  EXPECT_EQ(retry_delay(options, "m", 4), milliseconds(800));
  EXPECT_EQ(retry_delay(options, "m", 5), seconds(1));
  EXPECT_EQ(retry_delay(options, "m", 1'000'000), seconds(1));  // no overflow
  EXPECT_THROW(retry_delay(options, "m", 0), InvalidInputError);
}

TEST(RetryDelay, JitterIsDeterministicPerMessageAndWithinBounds) {
  const RelayOptions options(
      {.backoff_base = seconds(1), .backoff_cap = seconds(60), .jitter = 0.5});
  std::set<microseconds::rep> distinct;
  for (int i = 0; i < 50; ++i) {
    const std::string id = "message-" + std::to_string(i);
    const auto d = retry_delay(options, id, 3);
    EXPECT_EQ(d, retry_delay(options, id, 3));  // same message, same attempt: same delay
    EXPECT_LE(d, seconds(4));
    EXPECT_GT(d, seconds(2));  // at most half of 4 s taken off
    distinct.insert(d.count());
  }
  EXPECT_GT(distinct.size(), 40U);  // messages spread out
}

}  // namespace
}  // namespace docket
