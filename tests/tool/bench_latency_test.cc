// docket bench latency: the JSON report's invariants on a real SQLite file, and on each
// document provider's test server (DynamoDB Local, the Firestore emulator: the
// DocumentBench cases, instantiated by the providers' own test files), through the
// in-process transport, never its speed (the machine's load decides that): every
// message staged in each mode is handled, the percentiles are ordered, and an idle
// relay in the default mode queries its store less often than one polling every
// 200 ms. SQLite wakes its relays at a commit; the document stores do not, and say so.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "bench_run.h"
#include "document_bench_cases.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

// Every message of each mode handled, the percentiles ordered, and the default mode's
// idle relay (waits lengthening to 1 s) querying less often than the polling one.
void expect_latency_report(const nlohmann::json& report, int messages) {
  EXPECT_EQ(report.at("benchmark"), "latency");
  EXPECT_EQ(report.at("transport"), "in-process transport");
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  for (const char* mode : {"woken", "polled"}) {
    const auto& m = report.at(mode);
    EXPECT_EQ(m.at("staged"), messages) << mode;
    EXPECT_EQ(m.at("handled"), messages) << mode;
    EXPECT_LE(m.at("p50_ms").get<double>(), m.at("p99_ms").get<double>()) << mode;
    EXPECT_LE(m.at("p99_ms").get<double>(), m.at("p999_ms").get<double>()) << mode;
    EXPECT_LE(m.at("p999_ms").get<double>(), m.at("max_ms").get<double>()) << mode;
    EXPECT_GT(m.at("idle_queries_per_second").get<double>(), 0) << mode;
  }
  EXPECT_LT(report.at("woken").at("idle_queries_per_second").get<double>(),
            report.at("polled").at("idle_queries_per_second").get<double>());
}

TEST(BenchLatency, JsonReportHandlesEveryMessageInBothModes) {
  BenchDir dir;
  const auto report = run_json({"bench", "latency", "--store", dir.url(), "--messages", "40",
                                "--rounds", "2", "--rate", "400", "--idle-seconds", "1", "--json"});
  EXPECT_EQ(report.at("store"), dir.url());
  EXPECT_EQ(report.at("store_wakes"), true);  // an in-process signal at each commit
  expect_latency_report(report, 40);
}

// The document stores have a latency side (bench/latency_side.h): the command runs on
// them rather than refusing, its sides under the test's prefix. Their relays hear no
// commit, so the default mode is the idle backoff alone, which the report says.
TEST_P(DocumentBench, LatencyRunsOnTheIdleBackoff) {
  const auto report = run_json({"bench", "latency", "--store", database_->url(), "--messages", "12",
                                "--rounds", "2", "--rate", "50", "--idle-seconds", "1", "--json"});
  EXPECT_EQ(report.at("store"), database_->url());
  EXPECT_EQ(report.at("store_wakes"), false);
  expect_latency_report(report, 12);
}

}  // namespace
}  // namespace docket::testing
