// docket bench outbox: the JSON report's invariants on a real SQLite file and on the
// real PostgreSQL test server (never its speed: the machine's load decides that), and
// refused stores, files and options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "bench_run.h"
#include "postgres_raw.h"
#include "providers/postgres/tests/postgres_env.h"
#include "sqlite_raw.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

// Every staged message published and marked done, on both sides, per relay run.
void expect_consistent(const nlohmann::json& report, int messages, int threads, int batch,
                       const std::vector<int>& relays) {
  const auto runs = static_cast<int>(relays.size());
  EXPECT_EQ(report.at("messages"), messages);
  EXPECT_EQ(report.at("threads"), threads);
  EXPECT_EQ(report.at("batch"), batch);
  EXPECT_THAT(report.at("relays").get<std::vector<int>>(), ElementsAreArray(relays));
  EXPECT_EQ(report.at("staged"), messages);
  for (const std::string side : {"", "raw_"}) {
    EXPECT_EQ(report.at(side + "rows"), messages * runs) << side;
    EXPECT_EQ(report.at(side + "done"), messages * runs) << side;
    EXPECT_GE(report.at(side + "published").get<int>(), messages * runs) << side;
    EXPECT_EQ(report.at(side + "published").get<int>() - report.at(side + "duplicates").get<int>(),
              messages * runs)
        << side;
  }
  const auto& relay = report.at("relay");
  ASSERT_EQ(relay.size(), relays.size());
  for (std::size_t i = 0; i < relays.size(); ++i) {
    EXPECT_EQ(relay[i].at("relays"), relays[i]);
    EXPECT_EQ(relay[i].at("published"), messages);
    EXPECT_EQ(relay[i].at("raw_published"), messages);
    EXPECT_GE(relay[i].at("passes").get<int>(), (messages + batch - 1) / batch);
    EXPECT_GT(relay[i].at("rate").get<double>(), 0.0);
    EXPECT_GT(relay[i].at("raw_rate").get<double>(), 0.0);
  }
  EXPECT_GT(report.at("rate").get<double>(), 0.0);
  EXPECT_GT(report.at("raw_rate").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(report.at("ratio").get<double>(),
                   report.at("rate").get<double>() / report.at("raw_rate").get<double>());
  EXPECT_DOUBLE_EQ(report.at("relay_rate").get<double>(), relay[0].at("rate").get<double>());
  EXPECT_EQ(report.at("ok"), true);
  EXPECT_TRUE(report.at("problems").empty()) << report.at("problems");
}

TEST(BenchOutbox, JsonReportAddsUp) {
  BenchDir dir;
  const auto report = run_json(
      {"bench", "outbox", "--store", dir.url(), "--messages", "60", "--batch", "10", "--json"});
  expect_consistent(report, 60, 1, 10, {1});
  EXPECT_EQ(report.at("duplicates"), 0);
  EXPECT_EQ(report.at("store"), dir.url());
  EXPECT_EQ(report.at("raw_store"), dir.file("bench.db.raw").string());
  EXPECT_TRUE(report.at("round_trips_per_op").is_null()) << "SQLite is called, not talked to";
}

TEST(BenchOutbox, ThreadsAndRelaysWithAShortLastBatchAddUp) {
  BenchDir dir;
  const auto report = run_json({"bench", "outbox", "--store", dir.url(), "--messages", "50",
                                "--threads", "2", "--batch", "7", "--relays", "1", "3", "--json"});
  expect_consistent(report, 50, 2, 7, {1, 3});
}

TEST(BenchOutbox, SecondRunOnTheSameFileCountsOnlyItsOwnRows) {
  BenchDir dir;
  const std::vector<std::string> args = {"bench",      "outbox", "--store", dir.url(),
                                         "--messages", "20",     "--json"};
  const auto first = run_json(args);
  const auto second = run_json(args);
  expect_consistent(second, 20, 1, 100, {1});
  EXPECT_NE(first.at("run_id"), second.at("run_id"));
}

TEST(BenchOutbox, TextReportNamesBothSidesAndEachRelayRun) {
  BenchDir dir;
  const ToolRun run = run_docket(
      {"bench", "outbox", "--store", dir.url(), "--messages", "10", "--relays", "1", "2"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("docket "));
  EXPECT_THAT(run.out, HasSubstr("raw "));
  EXPECT_THAT(run.out, HasSubstr("staged, one per transaction"));
  EXPECT_THAT(run.out, HasSubstr("relayed, 1 relay "));
  EXPECT_THAT(run.out, HasSubstr("relayed, 2 relays"));
}

// The relay would publish another producer's pending rows: the file is refused.
TEST(BenchOutbox, AFileWithPendingOutboxRowsIsRefused) {
  BenchDir dir;
  run_json({"bench", "outbox", "--store", dir.url(), "--messages", "5", "--json"});
  bench::RawSqlite(dir.file("bench.db").string(), std::chrono::milliseconds(5'000))
      .exec_script(
          "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, "
          "traceparent, tracestate, created_at, status, attempts, next_attempt_at) VALUES "
          "('0190d8a0-0000-7000-8000-000000000001', 't', 'e', 'p', 0, '', '', 0, 0, 0, 0)");
  const ToolRun run = run_docket({"bench", "outbox", "--store", dir.url(), "--messages", "5"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("holds 1 pending outbox messages"));
  EXPECT_EQ(run.out, "");
}

TEST(BenchOutbox, PostgresJsonReportAddsUpAndDropsTheRunsSchemas) {
  const std::string url = test_support::postgres_test_url();
  const auto report =
      run_json({"bench", "outbox", "--store", url, "--messages", "40", "--batch", "5", "--json"});
  expect_consistent(report, 40, 1, 5, {1, 2, 4});
  const std::string raw_store = report.at("raw_store");
  EXPECT_THAT(raw_store, HasSubstr("docket_bench_ob_"));
  const std::string hex = report.at("run_id").get<std::string>().substr(13);
  EXPECT_EQ(bench::RawPostgres(url).count("SELECT count(*) FROM pg_namespace WHERE nspname LIKE $1",
                                          "docket_bench_ob_" + hex + "%"),
            0);
  // Staging adds no round trip to the producer's one-statement transaction; a relay
  // pass of 5 messages is a few requests, not one a message.
  EXPECT_EQ(report.at("round_trips_per_op").at("docket"), 1.0) << report.dump();
  EXPECT_EQ(report.at("round_trips_per_op").at("raw"), 1.0) << report.dump();
  for (const auto& run : report.at("relay")) {
    EXPECT_LT(run.at("round_trips_per_op").at("docket").get<double>(), 1.0) << run.dump();
    EXPECT_GT(run.at("round_trips_per_op").at("raw").get<double>(), 0.0) << run.dump();
  }
}

TEST(BenchOutbox, InMemoryStoresAreRefused) {
  expect_in_memory_refused("outbox", {"--messages", "5"});
}

// An option value no run can use is a usage error (exit status 2, naming the option and
// its range), refused before anything is opened.
TEST(BenchOutbox, UnusableNumbersAreRefused) {
  BenchDir dir;
  expect_usage_errors("outbox", dir,
                      {{{"--messages", "0"}, "--messages is 0"},
                       {{"--threads", "0"}, "--threads is 0"},
                       {{"--batch", "0"}, "--batch is 0"},
                       {{"--relays", "1", "0"}, "--relays has 0"}});
}

TEST(BenchOutbox, UnknownOptionIsAUsageError) {
  expect_unknown_option("outbox", "--relay");
}

}  // namespace
}  // namespace docket::testing
