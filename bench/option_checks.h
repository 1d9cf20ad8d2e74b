// Refusals of unusable benchmark options, worded alike by every benchmark.
//
// Thread-safety: pure functions.
#ifndef DOCKET_BENCH_OPTION_CHECKS_H_
#define DOCKET_BENCH_OPTION_CHECKS_H_

#include <cstddef>
#include <cstdio>
#include <string>

#include "docket/core/error.h"

namespace docket::bench {

inline constexpr std::size_t kMaxBenchThreads = 64;

// Throws InvalidInputError(refusal) unless `holds`.
inline void require_option(bool holds, const std::string& refusal) {
  if (!holds) {
    throw InvalidInputError(refusal);
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
    throw InvalidInputError(option + " is " + text +
                            "; pass the share of messages delivered twice, 0 to 1");
  }
}

}  // namespace docket::bench

#endif  // DOCKET_BENCH_OPTION_CHECKS_H_
