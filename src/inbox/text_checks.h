// Checks on the text values the inbox stores (ids, names, positions), shared by the
// envelope, the options and the store front ends so that every one words its errors
// the same way.
//
// Thread-safety: pure functions.
#ifndef DOCKET_INBOX_TEXT_CHECKS_H_
#define DOCKET_INBOX_TEXT_CHECKS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace docket::inbox {

// True when `text` is empty or only ASCII white space.
bool is_blank(std::string_view text) noexcept;

// Unicode code points in `text`, which must be valid UTF-8.
std::size_t count_code_points(std::string_view text) noexcept;

// What is wrong with `value` as a required text value, or nullopt: empty (or blank
// when `allow_blank` is false), not valid UTF-8, or longer than `max_bytes`.
// The message begins with `what`, e.g. "message id".
std::optional<std::string> text_problem(std::string_view what, std::string_view value,
                                        std::size_t max_bytes, bool allow_blank);

// Throws InvalidInputError with text_problem()'s message and `advice` appended.
void require_text(std::string_view what, std::string_view value, std::size_t max_bytes,
                  bool allow_blank, std::string_view advice);

}  // namespace docket::inbox

#endif  // DOCKET_INBOX_TEXT_CHECKS_H_
