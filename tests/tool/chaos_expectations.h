// What every test of `docket chaos` expects of a clean run, shared by the runs on the
// run's own queue (chaos_test.cc) and across a broker (broker_runs_test.cc).
//
// Thread-safety: free functions; gtest expectations from the test's thread.
#ifndef DOCKET_TESTS_TOOL_CHAOS_EXPECTATIONS_H_
#define DOCKET_TESTS_TOOL_CHAOS_EXPECTATIONS_H_

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace docket::testing {

// A chaos run of tens of kills far outlasts nothing but a hang.
inline constexpr std::chrono::seconds kChaosTimeLimit{300};

// Runs `docket chaos --kills <kills> --json` with `args`; the parsed report, after
// checking it ran clean: exit 0, every kill survived, orders placed, every order
// invoiced, nothing lost or doubled. Null when the output was no report.
nlohmann::json expect_chaos_ok(std::vector<std::string> args, int kills = 10);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_CHAOS_EXPECTATIONS_H_
