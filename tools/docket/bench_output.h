// What every `docket bench` subcommand prints the same way: fixed-point figures, and
// the failed checks that end a run with exit status 3.
#ifndef DOCKET_TOOLS_DOCKET_BENCH_OUTPUT_H_
#define DOCKET_TOOLS_DOCKET_BENCH_OUTPUT_H_

#include <string>
#include <string_view>
#include <vector>

namespace docket::tool {

// docket's rate over the raw rate; 0 when the raw side measured nothing.
inline double ratio_of(double rate, double raw_rate) {
  return raw_rate > 0 ? rate / raw_rate : 0.0;
}

// `value` with `decimals` digits after the point.
std::string fixed(double value, int decimals);

// Throws CheckFailed ("bench <name>: the run does not add up: a; b") unless `problems`
// is empty. Call after printing the report.
void throw_if_problems(std::string_view name, const std::vector<std::string>& problems);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_BENCH_OUTPUT_H_
