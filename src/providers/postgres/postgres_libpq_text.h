// Reading text libpq produces: hex digits (bytea output, URL percent-escapes) and
// messages that end in a newline.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_POSTGRES_LIBPQ_TEXT_H_
#define DOCKET_PROVIDERS_POSTGRES_LIBPQ_TEXT_H_

#include <string>
#include <string_view>

namespace docket::postgres::detail {

// 0..15 for 0-9, a-f, A-F; -1 for any other character.
constexpr int hex_digit_value(char c) noexcept {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

// A libpq message without its trailing newline(s), ready to embed in a sentence.
inline std::string libpq_message(std::string_view message) {
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
    message.remove_suffix(1);
  }
  return std::string(message);
}

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_LIBPQ_TEXT_H_
