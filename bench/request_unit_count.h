// Request units a measured phase of a run consumed per item, on docket's side and the raw
// side, where the provider's database bills them (Cosmos DB's x-ms-request-charge;
// ProviderBench::request_units()), read exactly: each side's total is its own, so the
// units between the two readings are that side's alone, however the sides alternate.
//
//   const RequestUnitCount units(*store.provider);   // before the phase
//   ... run ...
//   report.request_units_per_message = units.per_item(items);
//
// Thread-safety: read after the phase's threads have joined.
#ifndef DOCKET_BENCH_REQUEST_UNIT_COUNT_H_
#define DOCKET_BENCH_REQUEST_UNIT_COUNT_H_

#include <array>
#include <cstddef>
#include <optional>

#include "bench_provider.h"
#include "side_by_side.h"

namespace docket::bench {

// Request units per item, by Side; nullopt for a side not billed.
using RequestUnitsPerItem = std::array<std::optional<double>, 2>;

class RequestUnitCount {
 public:
  explicit RequestUnitCount(const ProviderBench& provider)
      : provider_(provider), before_(provider.request_units()) {}

  // The units since construction over `items`, by Side; nullopt for a side the provider
  // bills none, or when there were no items.
  RequestUnitsPerItem per_item(std::size_t items) const {
    const RequestUnits after = provider_.request_units();
    const auto per = [items](const std::optional<double>& from,
                             const std::optional<double>& to) -> std::optional<double> {
      if (!from || !to || items == 0) {
        return std::nullopt;
      }
      return (*to - *from) / static_cast<double>(items);
    };
    RequestUnitsPerItem units{};
    units[kDocketSide] = per(before_.docket, after.docket);
    units[kRawSide] = per(before_.raw, after.raw);
    return units;
  }

 private:
  const ProviderBench& provider_;
  RequestUnits before_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_REQUEST_UNIT_COUNT_H_
