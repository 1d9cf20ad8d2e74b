// What every `docket bench` subcommand reports the same way: fixed-point figures, the
// options a benchmark refuses (usage errors, exit status 2), and the failed checks that
// end a run with exit status 3.
//
// Thread-safety: pure functions.
#ifndef DOCKET_TOOLS_DOCKET_BENCH_OUTPUT_H_
#define DOCKET_TOOLS_DOCKET_BENCH_OUTPUT_H_

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "option_checks.h"
#include "usage_error.h"

namespace docket::tool {

// Runs a benchmark (`run`, e.g. [&] { return bench::run_claim_bench(options); }) and
// returns its report. An option value the benchmark refuses (bench::OptionRefused,
// found before anything is opened) is a wrong command line, so it is rethrown as the
// UsageError it is (exit status 2); every other error, a store's or a broker's among
// them, passes unchanged (exit status 1).
template <typename Run>
std::invoke_result_t<Run&> run_bench(Run&& run) {
  try {
    return run();
  } catch (const bench::OptionRefused& refusal) {
    throw UsageError(refusal.what());
  }
}

// docket's rate over the raw rate; 0 when the raw side measured nothing.
inline double ratio_of(double rate, double raw_rate) {
  return raw_rate > 0 ? rate / raw_rate : 0.0;
}

// `value` with `decimals` digits after the point.
std::string fixed(double value, int decimals);

// Round trips per operation, docket's and the raw side's (indexed by bench::Side), as
// {"docket": d, "raw": r}; null where the provider counts none (an embedded database).
nlohmann::json round_trips_json(const std::optional<std::array<double, 2>>& round_trips);

// "docket 2.00, raw 1.00" for a text report.
std::string round_trips_text(const std::array<double, 2>& round_trips);

// Request units an operation consumed on each side (indexed by bench::Side), where a
// provider's bench side reports what its requests are billed
// (ProviderBench::request_units(): Cosmos DB's x-ms-request-charge). Made before a run,
// it reads every bench provider's totals of request units and round trips; per_op()
// reads them again after the run and gives each side's request units per round trip
// over the run times that side's measured round trips per operation (the figure the
// report prints), nullopt for a side whose units or round trips nobody counts.
class RequestUnitMeter {
 public:
  RequestUnitMeter();
  std::array<std::optional<double>, 2> per_op(
      const std::optional<std::array<double, 2>>& round_trips_per_op) const;

 private:
  std::array<std::optional<double>, 2> units_;
  std::array<double, 2> trips_{};
};

// {"docket": d, "raw": r} (each null when not counted); null when neither side is.
nlohmann::json request_units_json(const std::array<std::optional<double>, 2>& units);
// "docket 5.10, raw 4.20" ("n/a" for a side not counted), or "" when neither side is.
std::string request_units_text(const std::array<std::optional<double>, 2>& units);

// Throws CheckFailed ("bench <name>: the run does not add up: a; b") unless `problems`
// is empty. Call after printing the report.
void throw_if_problems(std::string_view name, const std::vector<std::string>& problems);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_BENCH_OUTPUT_H_
