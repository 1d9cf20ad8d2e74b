// Durations on the command line: a positive whole number and a unit, e.g. "90s",
// "15m", "12h", "30d" (s, m, h, d; no fractions, no sums).
#ifndef DOCKET_TOOLS_DOCKET_DURATION_OPTION_H_
#define DOCKET_TOOLS_DOCKET_DURATION_OPTION_H_

#include <CLI/CLI.hpp>
#include <chrono>
#include <string_view>

namespace docket::tool {

// The longest duration accepted: far beyond any retention, well inside Timestamp.
inline constexpr std::chrono::hours kMaxDuration{24 * 365 * 100};

// Refuses (a usage error, exit status 2, naming the option) text that is not a whole
// number of decimal digits within 64 bits followed by one unit: "-5d", "5x", "1.5d",
// "99999999999999999999d". Whether the duration is in range is parse_duration's check.
const CLI::Validator& duration_text();

// Throws InvalidInputError naming `option` and the text when it is not a positive
// whole number followed by one unit, or exceeds kMaxDuration.
std::chrono::microseconds parse_duration(std::string_view option, std::string_view text);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_DURATION_OPTION_H_
