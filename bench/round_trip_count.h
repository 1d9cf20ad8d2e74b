// Round trips a measured run made per item, on docket's side and the raw side, where the
// provider counts them (a server; an embedded database is called, not talked to):
//
//   const RoundTripCount trips(*store.provider);   // before the run
//   ... run ...
//   report.round_trips_per_op = trips.per_item(items);
//
// Thread-safety: read after the run's threads have joined.
#ifndef DOCKET_BENCH_ROUND_TRIP_COUNT_H_
#define DOCKET_BENCH_ROUND_TRIP_COUNT_H_

#include <array>
#include <cstddef>
#include <optional>

#include "bench_provider.h"
#include "side_by_side.h"

namespace docket::bench {

class RoundTripCount {
 public:
  explicit RoundTripCount(const ProviderBench& provider)
      : provider_(provider), before_(provider.round_trips()) {}

  // Round trips since construction over `items`, indexed by Side; nullopt where the
  // provider counts none or there were no items.
  std::optional<std::array<double, 2>> per_item(std::size_t items) const {
    const std::optional<RoundTrips> after = provider_.round_trips();
    if (!before_ || !after || items == 0) {
      return std::nullopt;
    }
    const auto per = [items](std::uint64_t from, std::uint64_t to) {
      return static_cast<double>(to - from) / static_cast<double>(items);
    };
    std::array<double, 2> trips{};
    trips[kDocketSide] = per(before_->docket, after->docket);
    trips[kRawSide] = per(before_->raw, after->raw);
    return trips;
  }

 private:
  const ProviderBench& provider_;
  std::optional<RoundTrips> before_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_ROUND_TRIP_COUNT_H_
