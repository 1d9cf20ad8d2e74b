// The system clock in Unix microseconds, as docket's SystemClock stamps rows (and as
// every provider stores times, providers/kit/time_codec.h): what the raw baselines
// bind wherever docket binds "now".
//
// Thread-safety: safe from any thread.
#ifndef DOCKET_BENCH_WALL_CLOCK_H_
#define DOCKET_BENCH_WALL_CLOCK_H_

#include <chrono>
#include <cstdint>

#include "providers/kit/time_codec.h"

namespace docket::bench {

inline std::int64_t now_micros() {
  return kit::to_micros(
      std::chrono::floor<std::chrono::microseconds>(std::chrono::system_clock::now()));
}

}  // namespace docket::bench

#endif  // DOCKET_BENCH_WALL_CLOCK_H_
