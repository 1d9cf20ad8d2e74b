// The system clock in Unix microseconds, as docket's SystemClock stamps rows: what the
// raw baselines bind wherever docket binds "now".
//
// Thread-safety: safe from any thread.
#ifndef DOCKET_BENCH_WALL_CLOCK_H_
#define DOCKET_BENCH_WALL_CLOCK_H_

#include <chrono>
#include <cstdint>

namespace docket::bench {

inline std::int64_t now_micros() {
  return std::chrono::floor<std::chrono::microseconds>(std::chrono::system_clock::now())
      .time_since_epoch()
      .count();
}

}  // namespace docket::bench

#endif  // DOCKET_BENCH_WALL_CLOCK_H_
