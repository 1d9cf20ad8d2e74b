// A command line the command cannot run, found by the command itself rather than by
// CLI11: a number or duration outside its option's range, or options that contradict
// each other. main() reports it as CLI11's own usage errors are reported, with exit
// status 2, so that one rule holds for every usage error (docs/reliability.md): the
// command line is wrong, and nothing was opened, read or written.
//
// Thread-safety: immutable after construction.
#ifndef DOCKET_TOOLS_DOCKET_USAGE_ERROR_H_
#define DOCKET_TOOLS_DOCKET_USAGE_ERROR_H_

#include <stdexcept>
#include <string>

namespace docket::tool {

class UsageError : public std::runtime_error {
 public:
  // `what` names the option, what was given and what to give instead.
  explicit UsageError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_USAGE_ERROR_H_
