// docket bench events: the JSON report's invariants on a real SQLite file and on the
// real PostgreSQL test server (never its speed: the machine's load decides that), and
// refused stores and options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "bench_run.h"
#include "providers/postgres/tests/postgres_env.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

struct Shape {
  int appends = 0;
  std::vector<int> per_append;
  int streams = 0;
  int loads = 0;
  int length = 0;
  int threads = 1;
};

std::vector<std::string> args_for(const std::string& store, const Shape& shape) {
  std::vector<std::string> args = {"bench",           "events",
                                   "--store",         store,
                                   "--appends",       std::to_string(shape.appends),
                                   "--streams",       std::to_string(shape.streams),
                                   "--loads",         std::to_string(shape.loads),
                                   "--stream-length", std::to_string(shape.length),
                                   "--threads",       std::to_string(shape.threads),
                                   "--json"};
  if (!shape.per_append.empty()) {
    args.push_back("--events-per-append");
    for (const int k : shape.per_append) {
      args.push_back(std::to_string(k));
    }
  }
  return args;
}

// Every append answered and every event stored, on both sides, per case and in total.
void expect_consistent(const nlohmann::json& report, const Shape& shape) {
  const std::vector<int> per_append =
      shape.per_append.empty() ? std::vector<int>{1, 10} : shape.per_append;
  const auto& cases = report.at("cases");
  ASSERT_EQ(cases.size(), 2 * per_append.size());
  std::int64_t events = 0;
  std::int64_t conflicts = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    const int k = per_append[i % per_append.size()];
    const bool one = i < per_append.size();
    EXPECT_EQ(c.at("case"), (one ? "one-" : "many-") + std::to_string(k));
    EXPECT_EQ(c.at("streams"), one ? 1 : shape.streams);
    EXPECT_EQ(c.at("events_per_append"), k);
    EXPECT_EQ(c.at("appends"), shape.appends);
    for (const auto* side : {&c, &c.at("raw")}) {
      const auto side_conflicts = side->at("conflicts").get<std::int64_t>();
      const auto side_events = side->at("events").get<std::int64_t>();
      EXPECT_EQ(side_events, (shape.appends - side_conflicts) * k) << c;
      EXPECT_EQ(side->at("stored_events"), side_events) << c;
      EXPECT_EQ(side->at("stored_streams"), one ? 1 : std::min(shape.streams, shape.appends));
      EXPECT_GT(side->at("rate").get<double>(), 0.0);
    }
    EXPECT_DOUBLE_EQ(c.at("ratio").get<double>(),
                     c.at("rate").get<double>() / c.at("raw_rate").get<double>());
    events += c.at("events").get<std::int64_t>();
    conflicts += c.at("conflicts").get<std::int64_t>();
  }
  EXPECT_EQ(report.at("appends"), shape.appends * static_cast<int>(cases.size()));
  EXPECT_EQ(report.at("events"), events);
  EXPECT_EQ(report.at("conflicts"), conflicts);
  EXPECT_GT(report.at("rate").get<double>(), 0.0);
  EXPECT_GT(report.at("raw_rate").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(report.at("ratio").get<double>(),
                   report.at("rate").get<double>() / report.at("raw_rate").get<double>());
  const auto& load = report.at("load");
  EXPECT_EQ(load.at("loads"), shape.loads);
  EXPECT_EQ(load.at("stream_length"), shape.length);
  EXPECT_EQ(load.at("events"), shape.loads * shape.length);
  EXPECT_EQ(load.at("raw_events"), shape.loads * shape.length);
  EXPECT_GT(load.at("rate").get<double>(), 0.0);
  EXPECT_EQ(report.at("ok"), true);
  EXPECT_TRUE(report.at("problems").empty()) << report.at("problems");
}

TEST(BenchEvents, JsonReportAddsUp) {
  BenchDir dir;
  const Shape shape{.appends = 30, .per_append = {}, .streams = 7, .loads = 20, .length = 12};
  const auto report = run_json(args_for(dir.url(), shape));
  expect_consistent(report, shape);
  // One thread: each append expects the version the previous one left.
  EXPECT_EQ(report.at("conflicts"), 0);
  EXPECT_EQ(report.at("raw_conflicts"), 0);
  EXPECT_EQ(report.at("events"), 30 + 300 + 30 + 300);
  EXPECT_EQ(report.at("store"), dir.url());
  EXPECT_EQ(report.at("raw_store"), dir.file("bench.db.raw").string());
  for (const auto& c : report.at("cases")) {
    EXPECT_TRUE(c.at("round_trips_per_op").is_null()) << "SQLite is called, not talked to";
  }
}

TEST(BenchEvents, ThreadsOnOneStreamAccountForEveryConflict) {
  BenchDir dir;
  const Shape shape{
      .appends = 40, .per_append = {3}, .streams = 2, .loads = 10, .length = 5, .threads = 4};
  expect_consistent(run_json(args_for(dir.url(), shape)), shape);
}

TEST(BenchEvents, TextReportNamesBothSidesAndTheRatio) {
  BenchDir dir;
  const ToolRun run = run_docket({"bench", "events", "--store", dir.url(), "--appends", "5",
                                  "--streams", "3", "--loads", "5", "--stream-length", "4"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("docket "));
  EXPECT_THAT(run.out, HasSubstr("raw "));
  EXPECT_THAT(run.out, HasSubstr("1 stream, 10 events per append"));
  EXPECT_THAT(run.out, HasSubstr("3 streams, 1 event per append"));
  EXPECT_THAT(run.out, HasSubstr("loads of 4-event streams"));
}

TEST(BenchEvents, PostgresJsonReportAddsUp) {
  const Shape shape{.appends = 20, .per_append = {}, .streams = 5, .loads = 10, .length = 8};
  const auto report = run_json(args_for(test_support::postgres_test_url(), shape));
  expect_consistent(report, shape);
  EXPECT_EQ(report.at("conflicts"), 0);
  EXPECT_THAT(report.at("raw_store").get<std::string>(), HasSubstr("docket_bench_raw"));
  // An append is one round trip on both sides, whatever its number of events; the
  // first append of a connection also prepares its statement (one more).
  for (const auto& c : report.at("cases")) {
    for (const char* side : {"docket", "raw"}) {
      const double trips = c.at("round_trips_per_op").at(side).get<double>();
      EXPECT_GE(trips, 1.0) << side << " " << c;
      EXPECT_LE(trips, 1.0 + 2.0 / 20) << side << " " << c;
    }
  }
}

TEST(BenchEvents, PostgresThreadsOnOneStreamAccountForEveryConflict) {
  const Shape shape{
      .appends = 30, .per_append = {2}, .streams = 2, .loads = 6, .length = 5, .threads = 3};
  expect_consistent(run_json(args_for(test_support::postgres_test_url(), shape)), shape);
}

TEST(BenchEvents, InMemoryStoresAreRefused) {
  expect_in_memory_refused("events", {"--appends", "5"});
}

// An option value no run can use is a usage error (exit status 2, naming the option and
// its range), refused before anything is opened.
TEST(BenchEvents, UnusableNumbersAreRefused) {
  BenchDir dir;
  expect_usage_errors("events", dir,
                      {{{"--appends", "0"}, "--appends is 0"},
                       {{"--events-per-append", "0"}, "--events-per-append is 0"},
                       {{"--events-per-append", "1001"}, "--events-per-append is 1001"},
                       {{"--streams", "0"}, "--streams is 0"},
                       {{"--threads", "0"}, "--threads is 0"},
                       {{"--loads", "0"}, "--loads is 0"},
                       {{"--stream-length", "0"}, "--stream-length is 0"}});
}

TEST(BenchEvents, UnknownOptionIsAUsageError) {
  expect_unknown_option("events", "--apends");
}

}  // namespace
}  // namespace docket::testing
