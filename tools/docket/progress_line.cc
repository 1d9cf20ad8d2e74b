#include "progress_line.h"

#include <unistd.h>

#include <iostream>
#include <utility>

namespace docket::tool {

ProgressLine::ProgressLine(std::string verb, std::uint64_t expected, std::uint64_t shown_from)
    : verb_(std::move(verb)),
      expected_(expected),
      shown_(expected >= shown_from),
      terminal_(isatty(STDERR_FILENO) == 1) {}

ProgressLine::~ProgressLine() {
  if (shown_ && terminal_) {
    std::cerr << '\n';
  }
}

void ProgressLine::operator()(std::uint64_t done) {
  if (!shown_) {
    return;
  }
  if (terminal_) {
    std::cerr << '\r' << verb_ << ' ' << done << " of " << expected_ << std::flush;
  } else if (done > 0 && done * 10 >= next_tenth_ * expected_) {
    std::cerr << verb_ << ' ' << done << " of " << expected_ << '\n';
    next_tenth_ = done * 10 / (expected_ == 0 ? 1 : expected_) + 1;
  }
}

}  // namespace docket::tool
