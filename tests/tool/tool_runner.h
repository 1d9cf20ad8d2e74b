// Runs the built docket binary (DOCKET_TOOL_PATH) as a child process with an exact
// argv (no shell, so arguments may hold any bytes) and captures what it wrote.
#ifndef DOCKET_TESTS_TOOL_TOOL_RUNNER_H_
#define DOCKET_TESTS_TOOL_TOOL_RUNNER_H_

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace docket::testing {

struct ToolRun {
  int exit_code = -1;  // the child's exit status; -1 if it did not exit normally
  std::string out;     // everything written to stdout
  std::string err;     // everything written to stderr
};

// "exit N, stdout: ..., stderr: ..." for failure messages.
std::string describe(const ToolRun& run);

// Runs `docket args...` to completion, its standard input `input` when given (else the
// test's own). Throws std::runtime_error if the process cannot be started or waited for.
ToolRun run_docket(const std::vector<std::string>& args,
                   const std::optional<std::string>& input = std::nullopt);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_TOOL_RUNNER_H_
