#include "docket/core/clock.h"

#include <cstdio>

#include "docket/core/error.h"

namespace docket {

Timestamp SystemClock::now() const {
  // floor, not duration_cast: a (misconfigured) clock before 1970 must round towards
  // the past like every later instant does.
  return std::chrono::floor<std::chrono::microseconds>(std::chrono::system_clock::now());
}

const SystemClock& SystemClock::instance() noexcept {
  static const SystemClock clock;
  return clock;
}

std::string format_timestamp(Timestamp t) {
  using namespace std::chrono;
  // Civil-calendar arithmetic on the value itself: no time zone database, no gmtime
  // and its shared buffer. floor keeps instants before 1970 on the right day and
  // gives them a non-negative time of day.
  const auto day = floor<days>(t);
  const year_month_day date(day);
  const hh_mm_ss<microseconds> time(t - day);
  const int year = static_cast<int>(date.year());
  if (year < 0 || year > 9999) {
    throw InvalidInputError("timestamp " + std::to_string(t.time_since_epoch().count()) +
                            " us since 1970 falls in year " + std::to_string(year) +
                            ", which RFC 3339 cannot write (years 0000..9999). Check how the "
                            "timestamp was computed (a unit mix-up is the usual cause).");
  }
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02d.%06lldZ", year,
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(time.hours().count()), static_cast<int>(time.minutes().count()),
                static_cast<int>(time.seconds().count()),
                static_cast<long long>(time.subseconds().count()));
  return text;
}

}  // namespace docket
