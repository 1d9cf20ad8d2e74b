// A parser of Prometheus' text exposition format (version 0.0.4), for the tests that
// scrape docket's metrics: families by name, each with its # TYPE, # HELP and samples
// (a histogram's _bucket, _sum and _count samples belong to its family). Strict: a line
// it cannot read, a sample before any # TYPE, a sample of another family than the last
// # TYPE's, or a family typed twice throws std::runtime_error naming the line, so that
// malformed exposition fails the test that scraped it.
//
// Thread-safety: pure functions and values.
#ifndef DOCKET_TESTS_OBSERVABILITY_EXPOSITION_H_
#define DOCKET_TESTS_OBSERVABILITY_EXPOSITION_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace docket::testing {

struct ExpositionSample {
  std::string name{};  // as written: "x_bucket" for a histogram x
  std::map<std::string, std::string> labels{};
  double value = 0;
};

struct ExpositionFamily {
  std::string type{};  // "counter", "gauge", "histogram", ...
  std::string help{};
  std::vector<ExpositionSample> samples{};

  // The value of the sample named `name` whose labels include every one of `labels`;
  // nullopt when none has them, the first when several do.
  std::optional<double> value(std::string_view name,
                              const std::map<std::string, std::string>& labels = {}) const;
};

using Exposition = std::map<std::string, ExpositionFamily>;

Exposition parse_exposition(std::string_view text);

// GET http://host:port/metrics (or any URL) with libcurl: the body, or throws
// std::runtime_error naming the URL and why (a status other than 200 too).
std::string http_get(const std::string& url);

}  // namespace docket::testing

#endif  // DOCKET_TESTS_OBSERVABILITY_EXPOSITION_H_
