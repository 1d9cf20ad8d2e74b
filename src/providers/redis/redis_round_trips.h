// How many round trips this process has made to Redis servers through docket's
// provider: every Connection::pipeline (one command or a pipeline of them, sent
// together and their replies awaited) is one, a connection's set-up (AUTH, SELECT,
// SCRIPT LOAD) included. `docket bench` reads it before and after a run to print round
// trips per operation beside the raw baseline's, as postgres_round_trips.h does for
// PostgreSQL.
//
// Thread-safety: a relaxed atomic counter; safe from every thread. It orders nothing.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_ROUND_TRIPS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_ROUND_TRIPS_H_

#include <atomic>
#include <cstdint>

namespace docket::redis::detail {

inline std::atomic<std::uint64_t> round_trip_counter{0};

inline void count_round_trip() noexcept {
  round_trip_counter.fetch_add(1, std::memory_order_relaxed);
}

inline std::uint64_t round_trips() noexcept {
  return round_trip_counter.load(std::memory_order_relaxed);
}

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_ROUND_TRIPS_H_
