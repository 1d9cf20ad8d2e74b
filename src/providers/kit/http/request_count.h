// Counts of the HTTP requests docket's document providers send, for `docket bench`'s
// round trips per operation (bench/round_trip_count.h). Every HttpClient counts each
// request it sends, each attempt of a repeated one included, into the counter its
// options name: docket's own unless told otherwise. A benchmark's raw side, which sends
// the same requests through the provider's client outside docket's stores, counts into
// raw_requests(); the benchmark's checks count nowhere.
//
// Thread-safety: relaxed atomic counters, safe from every thread; they order nothing.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_REQUEST_COUNT_H_
#define DOCKET_PROVIDERS_KIT_HTTP_REQUEST_COUNT_H_

#include <atomic>
#include <cstdint>

namespace docket::kit::http {

inline std::atomic<std::uint64_t>& docket_requests() noexcept {
  static std::atomic<std::uint64_t> count{0};
  return count;
}

inline std::atomic<std::uint64_t>& raw_requests() noexcept {
  static std::atomic<std::uint64_t> count{0};
  return count;
}

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_REQUEST_COUNT_H_
