#include "bench_output.h"

#include <cstdio>

#include "bench_registry.h"
#include "check_failed.h"
#include "side_by_side.h"

namespace docket::tool {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

nlohmann::json round_trips_json(const std::optional<std::array<double, 2>>& round_trips) {
  if (!round_trips) {
    return nullptr;
  }
  return {{"docket", (*round_trips)[bench::kDocketSide]}, {"raw", (*round_trips)[bench::kRawSide]}};
}

std::string round_trips_text(const std::array<double, 2>& round_trips) {
  return "docket " + fixed(round_trips[bench::kDocketSide], 2) + ", raw " +
         fixed(round_trips[bench::kRawSide], 2);
}

namespace {

// The request units and round trips so far of the bench providers that report request
// units, summed per side. Only the round trips of a provider that reports a side's units
// are that side's: providers may share their round-trip counters (the HTTP ones do).
struct BilledTotals {
  std::array<std::optional<double>, 2> units;
  std::array<double, 2> trips{};
};

BilledTotals billed_totals() {
  BilledTotals totals;
  for (const bench::BenchProviderEntry& entry : bench::bench_providers()) {
    const bench::RequestUnits units = entry.bench->request_units();
    const std::optional<bench::RoundTrips> trips = entry.bench->round_trips();
    const auto add = [&](bench::Side side, const std::optional<double>& value, std::uint64_t made) {
      if (value && trips) {
        totals.units[side] = totals.units[side].value_or(0.0) + *value;
        totals.trips[side] += static_cast<double>(made);
      }
    };
    add(bench::kDocketSide, units.docket, trips ? trips->docket : 0);
    add(bench::kRawSide, units.raw, trips ? trips->raw : 0);
  }
  return totals;
}

}  // namespace

RequestUnitMeter::RequestUnitMeter() {
  const BilledTotals before = billed_totals();
  units_ = before.units;
  trips_ = before.trips;
}

std::array<std::optional<double>, 2> RequestUnitMeter::per_op(
    const std::optional<std::array<double, 2>>& round_trips_per_op) const {
  const BilledTotals after = billed_totals();
  std::array<std::optional<double>, 2> per_op;
  for (const bench::Side side : {bench::kDocketSide, bench::kRawSide}) {
    const double trips = after.trips[side] - trips_[side];
    if (round_trips_per_op && units_[side] && after.units[side] && trips > 0) {
      per_op[side] = (*after.units[side] - *units_[side]) / trips * (*round_trips_per_op)[side];
    }
  }
  return per_op;
}

nlohmann::json request_units_json(const std::array<std::optional<double>, 2>& units) {
  if (!units[bench::kDocketSide] && !units[bench::kRawSide]) {
    return nullptr;
  }
  const auto value = [](const std::optional<double>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  return {{"docket", value(units[bench::kDocketSide])}, {"raw", value(units[bench::kRawSide])}};
}

std::string request_units_text(const std::array<std::optional<double>, 2>& units) {
  if (!units[bench::kDocketSide] && !units[bench::kRawSide]) {
    return {};
  }
  const auto text = [](const std::optional<double>& v) {
    return v ? fixed(*v, 2) : std::string("n/a");
  };
  return "docket " + text(units[bench::kDocketSide]) + ", raw " + text(units[bench::kRawSide]);
}

void throw_if_problems(std::string_view name, const std::vector<std::string>& problems) {
  if (problems.empty()) {
    return;
  }
  std::string joined;
  for (const auto& problem : problems) {
    joined += (joined.empty() ? "" : "; ") + problem;
  }
  throw CheckFailed("bench " + std::string(name) + ": the run does not add up: " + joined);
}

}  // namespace docket::tool
