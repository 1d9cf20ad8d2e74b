// The pieces of a URL's text every URL parser of docket reads the same way: percent-
// escapes and whole numbers. Each parser words its own refusals (naming its scheme and
// the form it expects); what counts as well-formed is decided here, once.
//
// Thread-safety: pure functions.
#ifndef DOCKET_CORE_URL_TEXT_H_
#define DOCKET_CORE_URL_TEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docket::core {

// `text` with every %XX decoded; nullopt when a '%' is not followed by two hex digits.
std::optional<std::string> percent_decoded(std::string_view text);

// `text` with every well-formed %XX decoded and anything else kept as it is (a stray
// '%' stays); with `plus_as_space`, '+' reads as a space, as an HTML form encodes it.
std::string percent_decoded_leniently(std::string_view text, bool plus_as_space = false);

// `text` as a whole decimal number, nothing before or after it; nullopt when it is not
// one or does not fit 64 bits.
std::optional<std::uint64_t> whole_number(std::string_view text);

}  // namespace docket::core

#endif  // DOCKET_CORE_URL_TEXT_H_
