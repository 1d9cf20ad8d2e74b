// A command ran but what it checked afterwards did not hold (a benchmark whose
// outcomes or rows do not add up). main() reports it with its own exit status, so a
// script can tell it from refused input.
//
// Thread-safety: immutable after construction.
#ifndef DOCKET_TOOLS_DOCKET_CHECK_FAILED_H_
#define DOCKET_TOOLS_DOCKET_CHECK_FAILED_H_

#include <stdexcept>
#include <string>

namespace docket::tool {

class CheckFailed : public std::runtime_error {
 public:
  explicit CheckFailed(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHECK_FAILED_H_
