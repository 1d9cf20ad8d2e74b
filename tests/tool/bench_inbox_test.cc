// docket bench inbox: the JSON report's invariants on a real SQLite file and on the real
// PostgreSQL test server (never its speed: the machine's load decides that), and
// refused stores and options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_run.h"
#include "providers/postgres/tests/postgres_env.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

void expect_consistent(const nlohmann::json& report, int messages, int threads, int batch) {
  const int duplicated = messages / 2;
  EXPECT_EQ(report.at("messages"), messages);
  EXPECT_EQ(report.at("duplicated"), duplicated);
  EXPECT_EQ(report.at("deliveries"), messages + duplicated);
  EXPECT_EQ(report.at("threads"), threads);
  EXPECT_EQ(report.at("batch"), batch);
  EXPECT_EQ(report.at("processed"), messages);
  EXPECT_EQ(report.at("skipped_duplicates"), duplicated);
  EXPECT_EQ(report.at("processed").get<int>() + report.at("skipped_duplicates").get<int>(),
            report.at("deliveries").get<int>());
  EXPECT_EQ(report.at("effects"), messages);
  EXPECT_EQ(report.at("dedup_rows"), messages);
  const auto& raw = report.at("raw");
  EXPECT_EQ(raw.at("processed"), messages);
  EXPECT_EQ(raw.at("skipped_duplicates"), duplicated);
  EXPECT_EQ(raw.at("effects"), messages);
  EXPECT_GT(report.at("rate").get<double>(), 0.0);
  EXPECT_GT(report.at("raw_rate").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(report.at("ratio").get<double>(),
                   report.at("rate").get<double>() / report.at("raw_rate").get<double>());
  EXPECT_GT(report.at("peak_rss_bytes").get<std::uint64_t>(), 0U);
  EXPECT_EQ(report.at("ok"), true);
  EXPECT_TRUE(report.at("problems").empty());
}

TEST(BenchInbox, JsonReportAddsUp) {
  BenchDir dir;
  const auto report = run_json({"bench", "inbox", "--store", dir.url(), "--messages", "200",
                                "--duplicates", "0.5", "--json"});
  expect_consistent(report, 200, 1, 1);
  EXPECT_EQ(report.at("store"), dir.url());
  EXPECT_EQ(report.at("ids"), "uuidv7");
  // docket's file and the raw baseline's twin both exist.
  EXPECT_TRUE(std::filesystem::exists(dir.file("bench.db")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("bench.db.raw")));
}

TEST(BenchInbox, BatchedThreadedRandomIdsAddUpAcrossSegments) {
  BenchDir dir;
  const auto report =
      run_json({"bench", "inbox", "--store", dir.url(), "--messages", "400", "--duplicates", "0.5",
                "--batch", "25", "--threads", "2", "--random-ids", "--segment", "200", "--json"});
  expect_consistent(report, 400, 2, 25);
  EXPECT_EQ(report.at("ids"), "uuidv4");
  EXPECT_TRUE(report.at("round_trips_per_op").is_null()) << "SQLite is called, not talked to";
  // 600 deliveries in segments of 200 (a multiple of batch * threads = 50).
  ASSERT_EQ(report.at("segments").size(), 3U);
  EXPECT_EQ(report.at("segments")[2].at("end_delivery"), 600);
}

// The warm-up is a run of its own before the measured one: its messages are neither
// timed nor in the measured run's counts and checks.
TEST(BenchInbox, WarmUpMessagesAreDispatchedButNeitherTimedNorCounted) {
  BenchDir dir;
  const auto report = run_json(
      {"bench", "inbox", "--store", dir.url(), "--messages", "200", "--warmup", "300", "--json"});
  expect_consistent(report, 200, 1, 1);
  EXPECT_EQ(report.at("warmup"), 300);
  // 300 measured deliveries in one slice of 1,000; the warm-up's 450 in slices of their own.
  EXPECT_EQ(report.at("slices"), 1);
}

TEST(BenchInbox, SecondRunOnTheSameFileCountsOnlyItsOwnRows) {
  BenchDir dir;
  const std::vector<std::string> args = {"bench",      "inbox", "--store", dir.url(),
                                         "--messages", "50",    "--json"};
  const auto first = run_json(args);
  const auto second = run_json(args);
  expect_consistent(second, 50, 1, 1);
  EXPECT_NE(first.at("consumer_id"), second.at("consumer_id"));
}

TEST(BenchInbox, TextReportNamesBothSidesAndTheRatio) {
  BenchDir dir;
  const ToolRun run = run_docket({"bench", "inbox", "--store", dir.url(), "--messages", "20"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("docket "));
  EXPECT_THAT(run.out, HasSubstr("raw "));
  EXPECT_THAT(run.out, HasSubstr("ratio "));
  EXPECT_THAT(run.out, HasSubstr("peak RSS"));
}

TEST(BenchInbox, InMemoryStoresAreRefused) {
  for (const std::string url : {"memory:", "sqlite::memory:"}) {
    const ToolRun run = run_docket({"bench", "inbox", "--store", url, "--messages", "10"});
    EXPECT_EQ(run.exit_code, 1) << describe(run);
    EXPECT_THAT(run.err, StartsWith("docket: "));
    EXPECT_THAT(run.err, HasSubstr("durable commit"));
    EXPECT_EQ(run.out, "");
  }
}

// On the PostgreSQL test server (DOCKET_TEST_POSTGRES_URL; missing fails the test):
// docket in one schema, the libpq baseline in another, the same invariants as on SQLite.
TEST(BenchInbox, PostgresJsonReportAddsUp) {
  const std::string url = test_support::postgres_test_url();
  const auto report = run_json(
      {"bench", "inbox", "--store", url, "--messages", "200", "--duplicates", "0.5", "--json"});
  expect_consistent(report, 200, 1, 1);
  EXPECT_EQ(report.at("store"), url);
  EXPECT_THAT(report.at("raw_store").get<std::string>(), HasSubstr("docket_bench_raw"));
  // docket: BEGIN with the dedup insert, then the handler's sent insert with COMMIT (a
  // duplicate: its ROLLBACK); the first delivery of a connection also prepares. The
  // raw limit: one statement a delivery.
  const auto& trips = report.at("round_trips_per_op");
  EXPECT_GE(trips.at("docket").get<double>(), 2.0);
  EXPECT_LE(trips.at("docket").get<double>(), 2.0 + 4.0 / 300);
  EXPECT_GE(trips.at("raw").get<double>(), 1.0);
  EXPECT_LE(trips.at("raw").get<double>(), 1.0 + 2.0 / 300);
  EXPECT_GT(report.at("commit_limit_rate").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(report.at("commit_limit_ratio").get<double>(),
                   report.at("rate").get<double>() / report.at("commit_limit_rate").get<double>());
}

TEST(BenchInbox, PostgresDedupAtCommitIsOneRoundTripADelivery) {
  const auto report =
      run_json({"bench", "inbox", "--store", test_support::postgres_test_url(), "--messages", "200",
                "--duplicates", "0.5", "--dedup-at-commit", "--json"});
  expect_consistent(report, 200, 1, 1);
  EXPECT_EQ(report.at("dedup"), "at-commit");
  // A new message is one flight; a duplicate fails its flight, rolls back and reads
  // its dedup row: 200 x 1 + 100 x 3 over 300 deliveries, plus the first prepares.
  const double trips = report.at("round_trips_per_op").at("docket").get<double>();
  EXPECT_GE(trips, 500.0 / 300);
  EXPECT_LE(trips, 505.0 / 300);
}

TEST(BenchInbox, PostgresBatchedThreadedReportAddsUp) {
  const auto report =
      run_json({"bench", "inbox", "--store", test_support::postgres_test_url(), "--messages", "200",
                "--duplicates", "0.5", "--batch", "10", "--threads", "2", "--json"});
  expect_consistent(report, 200, 2, 10);
}

TEST(BenchInbox, PostgresUrlWithItsOwnOptionsIsRefused) {
  const ToolRun run = run_docket({"bench", "inbox", "--store",
                                  test_support::postgres_test_url() + "?options=-cwork_mem%3D64MB",
                                  "--messages", "10"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("sets libpq's `options`"));
  EXPECT_EQ(run.out, "");
}

// An option value no run can use is a usage error (exit status 2, naming the option and
// its range), refused before anything is opened.
TEST(BenchInbox, UnusableNumbersAreRefused) {
  BenchDir dir;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--messages", "0"}, "--messages is 0"},
      {{"--messages", "10", "--batch", "0"}, "--batch is 0"},
      {{"--messages", "10", "--threads", "0"}, "--threads is 0"},
      {{"--messages", "10", "--duplicates", "1.5"}, "--duplicates is 1.5; pass the share"},
      {{"--messages", "10000001"}, "--messages is 10000001; pass 1 to 10000000"},
      {{"--messages", "10000000", "--warmup", "1"},
       "--warmup must leave --warmup + --messages at most 10000000"},
  };
  for (const auto& [extra, mentions] : cases) {
    std::vector<std::string> args = {"bench", "inbox", "--store", dir.url()};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, 2) << describe(run);
    EXPECT_THAT(run.err, HasSubstr(mentions));
  }
}

// A count that would wrap (CLI11 reads "-5" into an unsigned option as 2^64 - 5) or
// overflow is a usage error on every benchmark, before anything is opened.
TEST(BenchInbox, EveryBenchmarksCountsRefuseNegativeAndOverflowingText) {
  BenchDir dir;
  const std::vector<std::pair<std::string, std::string>> options = {
      {"inbox", "--messages"},  {"inbox", "--batch"},    {"inbox", "--threads"},
      {"outbox", "--messages"}, {"outbox", "--threads"}, {"outbox", "--relays"},
      {"events", "--appends"},  {"events", "--threads"}, {"events", "--stream-length"},
      {"claim", "--messages"},  {"claim", "--threads"},
  };
  for (const auto& [bench, option] : options) {
    for (const char* text : {"-5", "99999999999999999999"}) {
      const ToolRun run = run_docket({"bench", bench, "--store", dir.url(), option, text});
      EXPECT_EQ(run.exit_code, 2) << bench << " " << option << " " << text << ": " << describe(run);
      EXPECT_THAT(run.err, HasSubstr(option));
    }
  }
}

}  // namespace
}  // namespace docket::testing
