#include "bench_output.h"

#include <cstdio>

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
