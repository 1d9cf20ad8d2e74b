#include "count_option.h"

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace docket::tool {

const CLI::Validator& whole_count() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        const bool digits =
            !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
        if (!digits) {
          return "'" + text + "' is not a count; pass a whole number of decimal digits, e.g. 1000";
        }
        std::uint64_t value = 0;
        const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
        if (parsed.ec != std::errc()) {
          return "'" + text + "' is too large; pass a whole number up to the option's limit";
        }
        return {};
      },
      "COUNT");
  return validator;
}

const CLI::Validator& whole_number() {
  static const CLI::Validator validator(
      [](std::string& text) -> std::string {
        const std::string_view digits =
            text.starts_with('-') ? std::string_view(text).substr(1) : std::string_view(text);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) {
          return "'" + text + "' is not a whole number; pass decimal digits, e.g. 3";
        }
        std::int64_t value = 0;
        const auto parsed = std::from_chars(text.data(), text.data() + text.size(), value);
        if (parsed.ec != std::errc()) {
          return "'" + text + "' is outside 64 bits; pass a whole number within the option's range";
        }
        return {};
      },
      "NUMBER");
  return validator;
}

}  // namespace docket::tool
