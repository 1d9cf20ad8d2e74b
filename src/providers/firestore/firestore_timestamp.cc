#include "providers/firestore/firestore_timestamp.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace docket::firestore::detail {
namespace {

// Parses `digits` digits of `text` at `at` as a number; false when they are not digits.
bool read_digits(std::string_view text, std::size_t at, std::size_t digits, int& out) {
  if (at + digits > text.size()) {
    return false;
  }
  out = 0;
  for (std::size_t i = at; i < at + digits; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return false;
    }
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

}  // namespace

std::optional<Timestamp> parse_rfc3339(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (text.size() < 20 || !read_digits(text, 0, 4, year) || text[4] != '-' ||
      !read_digits(text, 5, 2, month) || text[7] != '-' || !read_digits(text, 8, 2, day) ||
      (text[10] != 'T' && text[10] != 't') || !read_digits(text, 11, 2, hour) || text[13] != ':' ||
      !read_digits(text, 14, 2, minute) || text[16] != ':' || !read_digits(text, 17, 2, second)) {
    return std::nullopt;
  }
  std::size_t at = 19;
  std::int64_t micros = 0;
  if (text[at] == '.') {
    std::size_t digits = 0;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, ++digits) {
      if (digits < 6) {
        micros = micros * 10 + (text[at] - '0');
      }
    }
    if (digits == 0 || digits > 9) {
      return std::nullopt;
    }
    for (std::size_t d = digits; d < 6; ++d) {
      micros *= 10;
    }
  }
  std::int64_t offset_seconds = 0;
  const std::string_view zone = text.substr(at);
  int offset_hours = 0, offset_minutes = 0;
  if (zone == "Z" || zone == "z") {
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') &&
             read_digits(zone, 1, 2, offset_hours) && zone[3] == ':' &&
             read_digits(zone, 4, 2, offset_minutes)) {
    offset_seconds = (zone[0] == '+' ? 1 : -1) * (offset_hours * 3600 + offset_minutes * 60);
  } else {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(year),
                                         std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok() || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  const std::int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  const std::int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return Timestamp(std::chrono::microseconds(seconds * 1'000'000 + micros));
}

}  // namespace docket::firestore::detail
