#include "docket/core/clock.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"

namespace docket {
namespace {

using std::chrono::microseconds;
using namespace std::chrono_literals;

Timestamp at(std::int64_t micros) {
  return Timestamp(microseconds(micros));
}

Timestamp civil(std::chrono::year_month_day date, microseconds time_of_day) {
  return std::chrono::sys_days(date) + time_of_day;
}

TEST(ClockTest, SystemClockFollowsTheRealClockAtMicrosecondResolution) {
  const auto before = std::chrono::floor<microseconds>(std::chrono::system_clock::now());
  const Timestamp now = SystemClock::instance().now();
  const auto after = std::chrono::floor<microseconds>(std::chrono::system_clock::now());
  EXPECT_LE(before, now);
  EXPECT_LE(now, after);
}

TEST(ClockTest, SystemClockInstanceIsOneObject) {
  EXPECT_EQ(&SystemClock::instance(), &SystemClock::instance());
  const Clock& clock = SystemClock::instance();
  EXPECT_GT(clock.now(), civil(std::chrono::year(2024) / 1 / 1, 0us));
}

TEST(ClockTest, ManualClockMovesOnlyWhenTold) {
  ManualClock clock(at(1'000'000));
  EXPECT_EQ(clock.now(), at(1'000'000));
  EXPECT_EQ(clock.now(), at(1'000'000));
  clock.advance(250ms);
  EXPECT_EQ(clock.now(), at(1'250'000));
  clock.advance(microseconds(-1));
  EXPECT_EQ(clock.now(), at(1'249'999));
  clock.set(at(42));
  EXPECT_EQ(clock.now(), at(42));
  const Clock& as_clock = clock;
  EXPECT_EQ(as_clock.now(), at(42));
}

TEST(FormatTimestampTest, Epoch) {
  EXPECT_EQ(format_timestamp(at(0)), "1970-01-01T00:00:00.000000Z");
}

TEST(FormatTimestampTest, KnownInstantIn2026) {
  // 2026-12-02T10:49:19.123456Z = 1796208559 s + 123456 us after the epoch.
  EXPECT_EQ(format_timestamp(at(1'796'208'559'123'456)), "2026-12-02T10:49:19.123456Z");
  EXPECT_EQ(format_timestamp(civil(std::chrono::year(2026) / 12 / 2, 10h + 49min + 19s + 123456us)),
            "2026-12-02T10:49:19.123456Z");
}

TEST(FormatTimestampTest, LeapDayAndEndOfYear) {
  EXPECT_EQ(format_timestamp(civil(std::chrono::year(2024) / 2 / 29, 23h + 59min + 59s + 999999us)),
            "2024-02-29T23:59:59.999999Z");
  EXPECT_EQ(format_timestamp(civil(std::chrono::year(2000) / 12 / 31, 1us)),
            "2000-12-31T00:00:00.000001Z");
}

TEST(FormatTimestampTest, BeforeTheEpoch) {
  EXPECT_EQ(format_timestamp(at(-1)), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(format_timestamp(at(-1'000'000)), "1969-12-31T23:59:59.000000Z");
  // 1900-01-01T00:00:00.5Z: -2208988800 s + 0.5 s.
  EXPECT_EQ(format_timestamp(at(-2'208'988'800'000'000 + 500'000)), "1900-01-01T00:00:00.500000Z");
}

TEST(FormatTimestampTest, YearRangeLimits) {
  EXPECT_EQ(format_timestamp(civil(std::chrono::year(9999) / 12 / 31, 24h - 1us)),
            "9999-12-31T23:59:59.999999Z");
  EXPECT_EQ(format_timestamp(civil(std::chrono::year(0) / 1 / 1, 0us)),
            "0000-01-01T00:00:00.000000Z");
  try {
    format_timestamp(civil(std::chrono::year(10000) / 1 / 1, 0us));
    FAIL() << "expected InvalidInputError";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("year 10000"), std::string::npos) << e.what();
  }
  EXPECT_THROW(format_timestamp(civil(std::chrono::year(-1) / 12 / 31, 0us)), InvalidInputError);
}

}  // namespace
}  // namespace docket
