#include "duration_option.h"

#include <charconv>
#include <cstdint>
#include <string>

#include "docket/error.h"

namespace docket::tool {
namespace {

[[noreturn]] void refuse(std::string_view option, std::string_view text, std::string_view why) {
  throw InvalidInputError(std::string(option) + " '" + std::string(text) + "' " + std::string(why) +
                          "; write a positive whole number and a unit: 90s, 15m, 12h or 30d");
}

}  // namespace

std::chrono::microseconds parse_duration(std::string_view option, std::string_view text) {
  if (text.size() < 2) {
    refuse(option, text, "is not a duration");
  }
  const char unit = text.back();
  const std::string_view digits = text.substr(0, text.size() - 1);
  std::int64_t seconds_per_unit = 0;
  switch (unit) {
    case 's':
      seconds_per_unit = 1;
      break;
    case 'm':
      seconds_per_unit = 60;
      break;
    case 'h':
      seconds_per_unit = 3600;
      break;
    case 'd':
      seconds_per_unit = 86400;
      break;
    default:
      refuse(option, text, "has no unit");
  }
  std::uint64_t count = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    refuse(option, text, "is not a whole number of units");
  }
  const auto most = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::seconds>(kMaxDuration).count() / seconds_per_unit);
  if (count == 0 || count > most) {
    refuse(option, text, "is outside 1s..100 years");
  }
  return std::chrono::seconds(static_cast<std::int64_t>(count) * seconds_per_unit);
}

}  // namespace docket::tool
