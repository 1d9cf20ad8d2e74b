// docket bench relay: the JSON report's invariants on a real SQLite file through the
// test RabbitMQ broker (DOCKET_TEST_RABBITMQ_URL, scripts/rabbitmq-start.sh), never its
// speed (the machine's load decides that), and refused options, URLs and brokers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_run.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The test broker's URL with the exchange the bench publishes to.
std::string broker_url(const std::string& query = "?exchange=docket-bench-test") {
  const char* url = std::getenv("DOCKET_TEST_RABBITMQ_URL");
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        "DOCKET_TEST_RABBITMQ_URL is not set, and `docket bench relay` needs a real RabbitMQ "
        "broker. Start one:\n  export DOCKET_TEST_RABBITMQ_URL=$(scripts/rabbitmq-start.sh)");
  }
  return std::string(url) + query;
}

TEST(BenchRelay, JsonReportPublishesEveryStagedMessageAtEachBatchSize) {
  BenchDir dir;
  const auto report = run_json({"bench", "relay", "--store", dir.url(), "--transport", broker_url(),
                                "--messages", "30", "--batch", "1", "7", "--latency-messages", "12",
                                "--latency-rate", "500", "--json"});
  EXPECT_EQ(report.at("benchmark"), "relay");
  EXPECT_EQ(report.at("store"), dir.url());
  EXPECT_THAT(report.at("transport").get<std::string>(), HasSubstr("exchange=docket-bench-test"));
  EXPECT_THAT(report.at("transport").get<std::string>(), Not(HasSubstr("docket-test-secret")));
  EXPECT_EQ(report.at("messages"), 30);
  EXPECT_EQ(report.at("batches"), (std::vector<int>{1, 7}));
  const auto& runs = report.at("runs");
  ASSERT_EQ(runs.size(), 2U);
  for (const auto& run : runs) {
    const int batch = run.at("batch");
    EXPECT_EQ(run.at("published"), 30) << run.dump();
    EXPECT_EQ(run.at("raw_confirmed"), 30) << run.dump();
    EXPECT_EQ(run.at("queued"), 60) << "both sides' messages reached the run's queue";
    const int batches = (30 + batch - 1) / batch;
    EXPECT_EQ(run.at("passes"), batches) << run.dump();
    EXPECT_EQ(run.at("raw_confirm_waits"), batches) << run.dump();
    EXPECT_DOUBLE_EQ(run.at("round_trips_per_op").at("broker").at("docket").get<double>(),
                     batches / 30.0);
    EXPECT_DOUBLE_EQ(run.at("round_trips_per_op").at("broker").at("raw").get<double>(),
                     batches / 30.0);
    EXPECT_TRUE(run.at("round_trips_per_op").at("store").is_null())
        << "SQLite is called, not talked to";
    EXPECT_GT(run.at("rate").get<double>(), 0.0);
    EXPECT_GT(run.at("raw_rate").get<double>(), 0.0);
    EXPECT_DOUBLE_EQ(run.at("ratio").get<double>(),
                     run.at("rate").get<double>() / run.at("raw_rate").get<double>());
  }
  const auto& latency = report.at("latency");
  EXPECT_EQ(latency.at("staged"), 12);
  EXPECT_EQ(latency.at("handled"), 12);
  EXPECT_GT(latency.at("p50_ms").get<double>(), 0.0);
  EXPECT_LE(latency.at("p50_ms").get<double>(), latency.at("p99_ms").get<double>());
  EXPECT_LE(latency.at("p99_ms").get<double>(), latency.at("max_ms").get<double>());
  EXPECT_EQ(report.at("done"), 30 * 2 + 12) << "every staged message marked done";
  EXPECT_EQ(report.at("ok"), true);
  EXPECT_TRUE(report.at("problems").empty()) << report.at("problems");
}

TEST(BenchRelay, TextReportNamesEachBatchSizeAndTheEndToEndTimes) {
  BenchDir dir;
  const ToolRun run =
      run_docket({"bench", "relay", "--store", dir.url(), "--transport", broker_url(), "--messages",
                  "10", "--batch", "5", "--latency-messages", "5", "--latency-rate", "500"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("batch 5 "));
  EXPECT_THAT(run.out, HasSubstr("broker docket 0.20, raw 0.20"));
  EXPECT_THAT(run.out, HasSubstr("producer commit -> handler commit: 5 of 5"));
  EXPECT_THAT(run.out, Not(HasSubstr("docket-test-secret")));
}

// An option value no run can use is a usage error (exit status 2, naming the option and
// its range), refused before anything is opened.
TEST(BenchRelay, UnusableNumbersAreRefusedBeforeAnythingIsWritten) {
  BenchDir dir;
  const std::string transport = broker_url();
  expect_usage_errors("relay", dir,
                      {{{"--transport", transport, "--messages", "0"}, "--messages is 0"},
                       {{"--transport", transport, "--batch", "0"}, "--batch has 0"},
                       {{"--transport", transport, "--batch", "10001"}, "--batch has 10001"},
                       {{"--transport", transport, "--latency-messages", "1000001"},
                        "--latency-messages is 1000001"},
                       {{"--transport", transport, "--latency-rate", "0"}, "--latency-rate is 0"},
                       {{"--transport", transport, "--poll-ms", "0"}, "--poll-ms is 0"}});
}

// A transport URL the bench cannot use is refused (exit status 1): the command line is
// well formed.
TEST(BenchRelay, UnusableTransportsAreRefusedBeforeAnythingIsWritten) {
  BenchDir dir;
  expect_refusals(
      "relay", dir,
      {{{"--transport", broker_url("")}, "names no exchange; add ?exchange=<name>"},
       {{"--transport", "kafka://127.0.0.1:9092"}, "has a scheme no transport of this build opens"},
       // Nothing listens on port 1: the broker is down.
       {{"--transport", "amqp://guest:guest@127.0.0.1:1/?exchange=x&connect_timeout_ms=2000"},
        "127.0.0.1:1"}});
}

TEST(BenchRelay, WrongCredentialsAreAClearErrorWithoutThePassword) {
  BenchDir dir;
  // The test broker's URL with its password replaced.
  std::string url = broker_url();
  const std::size_t user = url.find("://") + 3;
  const std::size_t password = url.find(':', user) + 1;
  url.replace(password, url.find('@', password) - password, "not-the-password");
  const ToolRun run =
      run_docket({"bench", "relay", "--store", dir.url(), "--transport", url, "--messages", "5"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr(":***@"));
  EXPECT_THAT(run.err, Not(HasSubstr("not-the-password")));
  EXPECT_EQ(run.out, "");
  EXPECT_FALSE(std::filesystem::exists(dir.file("bench.db")));
}

TEST(BenchRelay, MissingRequiredOptionsAreUsageErrors) {
  BenchDir dir;
  const ToolRun run = run_docket({"bench", "relay", "--store", dir.url()});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("--transport"));
}

}  // namespace
}  // namespace docket::testing
