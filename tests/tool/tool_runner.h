// Runs the built docket binary (DOCKET_TOOL_PATH) as a child process with an exact
// argv (no shell, so arguments may hold any bytes) and captures what it wrote.
#ifndef DOCKET_TESTS_TOOL_TOOL_RUNNER_H_
#define DOCKET_TESTS_TOOL_TOOL_RUNNER_H_

#include <chrono>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace docket::testing {

struct ToolRun {
  int exit_code = -1;      // the child's exit status; -1 if it did not exit normally
  bool timed_out = false;  // killed (SIGKILL) for outliving its time limit
  std::string out;         // everything written to stdout
  std::string err;         // everything written to stderr
};

// How long a run may take unless the test says otherwise: far beyond any command the
// tests run, so that a tool that hangs fails its test instead of stalling the suite.
inline constexpr std::chrono::seconds kDefaultToolTimeout{600};

// "exit N, stdout: ..., stderr: ..." for failure messages.
std::string describe(const ToolRun& run);

// Runs `docket args...` to completion, its standard input `input` when given (else the
// test's own). A run still going after `timeout` is killed and reported with
// timed_out set (and exit_code -1). Throws std::runtime_error if the process cannot be
// started or waited for.
ToolRun run_docket(const std::vector<std::string>& args,
                   const std::optional<std::string>& input = std::nullopt,
                   std::chrono::milliseconds timeout = kDefaultToolTimeout);

// Runs `docket args...` as run_docket does, but kills it with SIGKILL when it is still
// running after `limit`: exit_code -1, and stderr says so. For a run that must end.
ToolRun run_docket_within(const std::vector<std::string>& args, std::chrono::seconds limit);

// Runs `docket args...` and kills it with SIGKILL as soon as its stdout holds `marker`,
// the way a process dies mid-run; returns what it wrote until then (exit_code -1 when
// it was killed, its exit status when it ended before writing the marker).
ToolRun run_docket_killed_at(const std::vector<std::string>& args, const std::string& marker);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_TOOL_RUNNER_H_
