#include "duration_option.h"

#include <charconv>
#include <cstdint>
#include <string>

#include "docket/core/error.h"
#include "usage_error.h"

namespace docket::tool {
namespace {

[[noreturn]] void refuse(std::string_view option, std::string_view text, std::string_view why) {
  throw UsageError(std::string(option) + " '" + std::string(text) + "' " + std::string(why) +
                   "; write a positive whole number and a unit: 90s, 15m, 12h or 30d");
}

bool is_unit(char c) {
  return c == 's' || c == 'm' || c == 'h' || c == 'd';
}

}  // namespace

const CLI::Validator& duration_text() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        const std::string_view digits =
            text.empty() ? std::string_view() : std::string_view(text).substr(0, text.size() - 1);
        const bool shaped = text.size() >= 2 && is_unit(text.back()) &&
                            digits.find_first_not_of("0123456789") == std::string_view::npos;
        if (!shaped) {
          return "'" + text +
                 "' is not a duration; write a positive whole number and a unit: 90s, 15m, 12h "
                 "or 30d";
        }
        std::uint64_t count = 0;
        const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), count);
        if (parsed.ec != std::errc()) {
          return "'" + text + "' is too large; durations go up to 100 years (36500d)";
        }
        return {};
      },
      "DURATION");
  return validator;
}

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
