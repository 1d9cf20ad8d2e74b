// The wake signal and the idle wait built on it, on real threads: a notification after
// the count a waiter read ends its wait at once, also one that came before the wait
// began (the window between a poll and its wait is closed); a wait without one ends
// at its timeout or at a stop request; idle waits double up to the longest and start
// again from the first after work.
#include "docket/core/wake_signal.h"

#include <gtest/gtest.h>

#include <chrono>
#include <latch>
#include <stop_token>
#include <thread>

#include "core/idle_wait.h"
#include "docket/core/error.h"

namespace docket {
namespace {

using namespace std::chrono_literals;

TEST(WakeSignal, ANotificationAfterTheCountReadEndsTheWaitEvenBeforeItBegan) {
  WakeSignal signal;
  const std::uint64_t seen = signal.count();
  signal.notify();  // between the poll and the wait
  EXPECT_TRUE(signal.wait(seen, std::chrono::hours(1)));
  EXPECT_EQ(signal.count(), seen + 1);
}

TEST(WakeSignal, ANotificationFromAnotherThreadWakesTheWaiter) {
  WakeSignal signal;
  const std::uint64_t seen = signal.count();
  std::latch waiting(1);
  std::jthread notifier([&] {
    waiting.wait();
    signal.notify();
  });
  waiting.count_down();
  EXPECT_TRUE(signal.wait(seen, std::chrono::hours(1)));
}

TEST(WakeSignal, AWaitWithoutANotificationEndsAtItsTimeoutOrAtAStop) {
  WakeSignal signal;
  EXPECT_FALSE(signal.wait(signal.count(), 10ms));
  std::stop_source stop;
  std::jthread stopper([&] { stop.request_stop(); });
  EXPECT_FALSE(signal.wait(signal.count(), std::chrono::hours(1), stop.get_token()));
}

TEST(IdleWait, WaitsDoubleUpToTheLongestAndStartAgainAfterWork) {
  detail::IdleWait idle(1ms, 5ms, nullptr);
  EXPECT_EQ(idle.next_wait(), 1ms);
  std::stop_source stop;
  idle.wait(stop.get_token());
  EXPECT_EQ(idle.next_wait(), 2ms);
  idle.wait(stop.get_token());
  EXPECT_EQ(idle.next_wait(), 4ms);
  idle.wait(stop.get_token());
  EXPECT_EQ(idle.next_wait(), 5ms);
  idle.wait(stop.get_token());
  EXPECT_EQ(idle.next_wait(), 5ms);
  idle.found_work();
  EXPECT_EQ(idle.next_wait(), 1ms);
}

TEST(IdleWait, ASignalEndsTheWaitWhenNotifiedAfterThePoll) {
  auto signal = std::make_shared<WakeSignal>();
  detail::IdleWait idle(std::chrono::hours(1), std::chrono::hours(1), signal);
  idle.before_poll();
  signal->notify();  // a commit while the poll ran
  std::stop_source stop;
  EXPECT_TRUE(idle.wait(stop.get_token()));
}

TEST(IdleWait, SettingsOutOfOrderAreRefusedNamingBoth) {
  EXPECT_THROW(detail::IdleWait::check("relay options", 0ms, 1s), ConfigurationError);
  try {
    detail::IdleWait::check("relay options", 2s, 1s);
    FAIL() << "not refused";
  } catch (const ConfigurationError& error) {
    EXPECT_STREQ(error.what(),
                 "relay options: max_poll_interval is 1000000 us, below poll_interval (2000000 "
                 "us); give a longest idle wait at least as long as the first");
  }
}

}  // namespace
}  // namespace docket
