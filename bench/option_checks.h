// Refusals of unusable benchmark options, worded alike by every benchmark.
//
// An option value no run could use (a count outside its range, a share outside [0, 1],
// options that contradict) is refused as OptionRefused, before anything is opened: the
// command line is wrong, and the tool reports it as a usage error (exit status 2,
// docs/reliability.md). Refusals of the store or of what it holds are other errors and
// stay refusals of a well-formed command (exit status 1).
//
// Thread-safety: pure functions; OptionRefused is immutable after construction.
#ifndef DOCKET_BENCH_OPTION_CHECKS_H_
#define DOCKET_BENCH_OPTION_CHECKS_H_

#include <cstddef>
#include <cstdio>
#include <string>

#include "docket/core/error.h"

namespace docket::bench {

inline constexpr std::size_t kMaxBenchThreads = 64;

// An option value the benchmark cannot run with. An InvalidInputError still, so that a
// caller that does not tell usage errors apart refuses it as before.
class OptionRefused : public InvalidInputError {
 public:
  // `refusal` names the option, the value given and what to pass instead.
  explicit OptionRefused(const std::string& refusal) : InvalidInputError(refusal) {}
};

// Throws OptionRefused(refusal) unless `holds`.
inline void require_option(bool holds, const std::string& refusal) {
  if (!holds) {
    throw OptionRefused(refusal);
  }
}

// `option` ("--threads") within 1 .. max.
inline void require_count(const std::string& option, std::size_t value, std::size_t max) {
  require_option(value >= 1 && value <= max,
                 option + " is " + std::to_string(value) + "; pass 1 to " + std::to_string(max));
}

// `option` ("--duplicates"), a share of messages delivered twice, within [0, 1];
// written so that NaN fails it too.
inline void require_share(const std::string& option, double share) {
  if (!(share >= 0.0 && share <= 1.0)) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", share);
    throw OptionRefused(option + " is " + text +
                        "; pass the share of messages delivered twice, 0 to 1");
  }
}

}  // namespace docket::bench

#endif  // DOCKET_BENCH_OPTION_CHECKS_H_
