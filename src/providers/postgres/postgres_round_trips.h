// How many round trips this process has made to PostgreSQL servers through docket's
// provider: every statement sent and its result awaited (a prepare, an execution,
// BEGIN and COMMIT alike) is one. `docket bench` reads it before and after a run to
// print round trips per operation beside the raw baseline's.
//
// Thread-safety: a relaxed atomic counter; safe from every thread. It orders nothing.
#ifndef DOCKET_PROVIDERS_POSTGRES_ROUND_TRIPS_H_
#define DOCKET_PROVIDERS_POSTGRES_ROUND_TRIPS_H_

#include <atomic>
#include <cstdint>

namespace docket::postgres::detail {

inline std::atomic<std::uint64_t> round_trip_counter{0};

inline void count_round_trip() noexcept {
  round_trip_counter.fetch_add(1, std::memory_order_relaxed);
}

inline std::uint64_t round_trips() noexcept {
  return round_trip_counter.load(std::memory_order_relaxed);
}

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_ROUND_TRIPS_H_
