#include "bench_output.h"

#include <cstdio>

#include "check_failed.h"

namespace docket::tool {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
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
