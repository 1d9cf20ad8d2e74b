#include "inbox/text_checks.h"

#include <algorithm>
#include <limits>

#include "docket/core/error.h"
#include "docket/core/utf8.h"

namespace docket::inbox {

bool is_blank(std::string_view text) noexcept {
  return std::all_of(text.begin(), text.end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  });
}

std::size_t count_code_points(std::string_view text) noexcept {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::optional<std::string> text_problem(std::string_view what, std::string_view value,
                                        std::size_t max_bytes, bool allow_blank) {
  if (value.empty()) {
    return std::string(what) + " is empty";
  }
  if (!allow_blank && is_blank(value)) {
    return std::string(what) + " is blank (only white space)";
  }
  if (auto defect = find_utf8_defect(value)) {
    return describe_utf8_defect(what, value, *defect);
  }
  if (max_bytes != std::numeric_limits<std::size_t>::max() && value.size() > max_bytes) {
    return std::string(what) + " is " + std::to_string(value.size()) + " bytes long, over the " +
           std::to_string(max_bytes) + "-byte limit";
  }
  return std::nullopt;
}

void require_text(std::string_view what, std::string_view value, std::size_t max_bytes,
                  bool allow_blank, std::string_view advice) {
  if (auto problem = text_problem(what, value, max_bytes, allow_blank)) {
    throw InvalidInputError(*problem + "; " + std::string(advice));
  }
}

}  // namespace docket::inbox
