// The request units (x-ms-request-charge) the raw sides of `docket bench` on Cosmos DB
// consumed, a process-wide running total beside kit::http::raw_requests(): every raw
// session's client names it as the counter its charges are added to
// (ClientOptions::milli_request_units), as docket's stores' clients add to
// cosmos::detail::docket_milli_request_units(), so the two sides never mix and the bench
// reads one figure however many threads ran.
//
// Invariant: raw_request_units() only grows, by exactly the charges of the raw sides'
// answers (throttled attempts included: that is the bill).
//
// Thread-safety: the total is a relaxed atomic, safe from every thread.
#ifndef DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_CHARGES_H_
#define DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_CHARGES_H_

#include <atomic>
#include <cstdint>

namespace docket::bench {

// Thousandths of a request unit, every raw session's so far.
inline std::atomic<std::uint64_t>& raw_milli_request_units() noexcept {
  static std::atomic<std::uint64_t> total{0};
  return total;
}

// The request units the raw sides consumed so far.
inline double raw_request_units() noexcept {
  return static_cast<double>(raw_milli_request_units().load(std::memory_order_relaxed)) / 1000.0;
}

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_CHARGES_H_
