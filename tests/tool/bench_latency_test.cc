// docket bench latency: the JSON report's invariants on a real SQLite file through the
// in-process transport, never its speed (the machine's load decides that): every
// message staged in each mode is handled, the percentiles are ordered, and an idle
// relay with wake-ups queries its store less often than one polling every 200 ms.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "bench_run.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

TEST(BenchLatency, JsonReportHandlesEveryMessageInBothModes) {
  BenchDir dir;
  const auto report = run_json({"bench", "latency", "--store", dir.url(), "--messages", "40",
                                "--rounds", "2", "--rate", "400", "--idle-seconds", "1", "--json"});
  EXPECT_EQ(report.at("benchmark"), "latency");
  EXPECT_EQ(report.at("store"), dir.url());
  EXPECT_EQ(report.at("transport"), "in-process transport");
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  for (const char* mode : {"woken", "polled"}) {
    const auto& m = report.at(mode);
    EXPECT_EQ(m.at("staged"), 40) << mode;
    EXPECT_EQ(m.at("handled"), 40) << mode;
    EXPECT_LE(m.at("p50_ms").get<double>(), m.at("p99_ms").get<double>()) << mode;
    EXPECT_LE(m.at("p99_ms").get<double>(), m.at("p999_ms").get<double>()) << mode;
    EXPECT_LE(m.at("p999_ms").get<double>(), m.at("max_ms").get<double>()) << mode;
    EXPECT_GT(m.at("idle_queries_per_second").get<double>(), 0) << mode;
  }
  // An idle relay with wake-ups waits up to 1 s between claims; the polling one 200 ms.
  EXPECT_LT(report.at("woken").at("idle_queries_per_second").get<double>(),
            report.at("polled").at("idle_queries_per_second").get<double>());
}

}  // namespace
}  // namespace docket::testing
