#include "docket/core/feed_cursor.h"

#include <charconv>
#include <ostream>
#include <string>
#include <system_error>

#include "docket/core/error.h"
#include "docket/core/utf8.h"

namespace docket {
namespace {

constexpr std::string_view kForms =
    "A feed cursor is \"0\" (the start), a global position in decimal, or "
    "\"<scheme>:<body>\" as the store that gave it wrote it";

bool is_digit(char c) noexcept {
  return c >= '0' && c <= '9';
}
bool is_lower(char c) noexcept {
  return c >= 'a' && c <= 'z';
}

// What is wrong with `scheme` as an opaque cursor's scheme, or nullopt.
std::optional<std::string> scheme_problem(std::string_view scheme) {
  if (scheme.empty() || !is_lower(scheme.front())) {
    return std::string("its scheme does not start with a lower-case letter");
  }
  if (scheme.size() > kMaxFeedCursorSchemeBytes) {
    return "its scheme is " + std::to_string(scheme.size()) + " bytes, over the limit of " +
           std::to_string(kMaxFeedCursorSchemeBytes);
  }
  for (const char c : scheme) {
    if (!is_lower(c) && !is_digit(c) && c != '-' && c != '.') {
      return std::string("its scheme has a byte other than a-z, 0-9, '-' or '.'");
    }
  }
  return std::nullopt;
}

// What is wrong with `text` as any cursor text's bytes (UTF-8, no control character),
// or nullopt. Never echoes the bytes.
std::optional<std::string> bytes_problem(std::string_view what, std::string_view text) {
  if (const auto defect = find_utf8_defect(text)) {
    return describe_utf8_defect(what, text, *defect);
  }
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7F) {
      constexpr std::string_view kHex = "0123456789ABCDEF";
      return std::string(what) + " has a control character (0x" + kHex[byte >> 4] +
             kHex[byte & 0xF] + ") at byte " + std::to_string(i);
    }
  }
  return std::nullopt;
}

// What is wrong with `text` as a cursor, or nullopt.
std::optional<std::string> cursor_problem(std::string_view text) {
  if (text.empty()) {
    return std::string("the feed cursor is empty");
  }
  if (auto problem = bytes_problem("the feed cursor", text)) {
    return problem;
  }
  const std::string quoted = "the feed cursor '" + std::string(text) + "'";
  if (is_digit(text.front())) {
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) {
      return quoted + " is a position beyond the largest global position";
    }
    if (end != text.data() + text.size()) {
      return quoted + " starts with a digit but is not a decimal position";
    }
    if (text.size() > 1 && text.front() == '0') {
      return quoted + " has a leading zero; a position is written without one";
    }
    return std::nullopt;
  }
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    return quoted + " has no scheme (\"<scheme>:\")";
  }
  if (auto problem = scheme_problem(text.substr(0, colon))) {
    return quoted + ": " + *problem;
  }
  if (colon + 1 == text.size()) {
    return quoted + " has an empty body after its scheme";
  }
  return std::nullopt;
}

}  // namespace

FeedCursor FeedCursor::at_position(std::int64_t next_position) {
  if (next_position < 0) {
    throw InvalidInputError("feed cursor at global position " + std::to_string(next_position) +
                            ": positions start at 1. Use FeedCursor::start() (position 0) to "
                            "read from the beginning.");
  }
  return FeedCursor(std::to_string(next_position));
}

FeedCursor FeedCursor::opaque(std::string_view scheme, std::string_view body) {
  if (auto problem = scheme_problem(scheme)) {
    throw InvalidInputError("opaque feed cursor: " + *problem +
                            ". Name the store's cursor encoding and version, e.g. "
                            "\"mystore1\".");
  }
  if (body.empty()) {
    throw InvalidInputError("opaque feed cursor of scheme '" + std::string(scheme) +
                            "': its body is empty. Encode where the feed resumes in it.");
  }
  if (auto problem = bytes_problem("the body of an opaque feed cursor", body)) {
    throw InvalidInputError(*problem +
                            ". Encode the body as printable UTF-8 text "
                            "(e.g. base64url of the store's bytes).");
  }
  return FeedCursor(std::string(scheme) + ":" + std::string(body));
}

FeedCursor FeedCursor::parse(std::string_view text) {
  if (auto problem = cursor_problem(text)) {
    throw InvalidInputError(*problem + ". " + std::string(kForms) +
                            "; pass a cursor the store's read_feed returned, unchanged.");
  }
  return FeedCursor(std::string(text));
}

std::optional<FeedCursor> FeedCursor::try_parse(std::string_view text) {
  if (cursor_problem(text)) {
    return std::nullopt;
  }
  return FeedCursor(std::string(text));
}

std::optional<std::int64_t> FeedCursor::position() const noexcept {
  if (!is_digit(text_.front())) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  std::from_chars(text_.data(), text_.data() + text_.size(), value);
  return value;
}

std::string_view FeedCursor::scheme() const noexcept {
  const std::size_t colon = text_.find(':');
  return colon == std::string::npos ? std::string_view() : std::string_view(text_).substr(0, colon);
}

std::string_view FeedCursor::body() const noexcept {
  const std::size_t colon = text_.find(':');
  return colon == std::string::npos ? std::string_view()
                                    : std::string_view(text_).substr(colon + 1);
}

std::ostream& operator<<(std::ostream& os, const FeedCursor& cursor) {
  return os << cursor.text();
}

}  // namespace docket
