// Counts on the command line (--messages, --threads, ...): CLI11 reads "-5" into an
// unsigned option as 2^64 - 5 and a number past 2^64 as 2^64 - 1, so a count option
// checks its text first: decimal digits only, within 64 bits. A signed option
// (--version) is read the same way: a number past 64 bits would be clamped to the
// largest one. Whether the value is in the command's range is the command's own check,
// which names that range (refused input, exit status 1).
#ifndef DOCKET_TOOLS_DOCKET_COUNT_OPTION_H_
#define DOCKET_TOOLS_DOCKET_COUNT_OPTION_H_

#include <CLI/CLI.hpp>

namespace docket::tool {

// Refuses (a usage error, exit status 2, naming the option) text that is not a whole
// number written in decimal digits, or one too large for 64 bits.
const CLI::Validator& whole_count();

// Refuses (a usage error, exit status 2, naming the option) text that is not a whole
// number in decimal digits with an optional leading '-', or one outside signed 64 bits.
const CLI::Validator& whole_number();

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_COUNT_OPTION_H_
