#include "bench_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <stdexcept>

#include "tool_runner.h"

namespace docket::testing {

BenchDir::BenchDir() {
  std::string dir = (std::filesystem::temp_directory_path() / "docket-bench-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed for " + dir);
  }
  path_ = dir;
}

BenchDir::~BenchDir() {
  std::filesystem::remove_all(path_);
}

nlohmann::json run_json(const std::vector<std::string>& args) {
  const ToolRun run = run_docket(args);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.err, "");
  // Exactly one JSON object on one line.
  EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << run.out;
  return nlohmann::json::parse(run.out);
}

void expect_claim_report(const nlohmann::json& report, int messages, int threads, int warmup) {
  EXPECT_EQ(report.at("benchmark"), "claim");
  EXPECT_EQ(report.at("messages"), messages);
  EXPECT_EQ(report.at("warmup"), warmup);
  EXPECT_EQ(report.at("threads"), threads);
  for (const std::string field :
       {"claimed", "raw_claimed", "processed", "raw_processed", "entries", "raw_entries",
        "processed_entries", "raw_processed_entries", "effects", "raw_effects", "effect_items",
        "raw_effect_items", "effect_messages", "raw_effect_messages"}) {
    EXPECT_EQ(report.at(field), messages + warmup) << field;
  }
  EXPECT_EQ(report.at("effect"), true);
  EXPECT_EQ(report.at("effects_exactly_once"), true);
  EXPECT_EQ(report.at("deliveries"), messages);
  EXPECT_EQ(report.at("duplicate_deliveries"), 0);
  EXPECT_EQ(report.at("skipped"), 0);
  EXPECT_EQ(report.at("raw_skipped"), 0);
  // Every delivery is a distinct message: as many handled as delivered a second.
  EXPECT_DOUBLE_EQ(report.at("handled_rate").get<double>(), report.at("rate").get<double>());
  // The rate is the measured deliveries over the measured seconds (the warm-up's left out).
  EXPECT_NEAR(report.at("rate").get<double>() * report.at("seconds").get<double>(), messages,
              1e-6 * messages);
  EXPECT_NEAR(report.at("raw_rate").get<double>() * report.at("raw_seconds").get<double>(),
              messages, 1e-6 * messages);
  EXPECT_GT(report.at("rate").get<double>(), 0.0);
  EXPECT_GT(report.at("raw_rate").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(report.at("ratio").get<double>(),
                   report.at("rate").get<double>() / report.at("raw_rate").get<double>());
  EXPECT_GT(report.at("median_slice_ratio").get<double>(), 0.0);
  EXPECT_GE(report.at("slices").get<int>(), 1);
  EXPECT_EQ(report.at("ok"), true);
  EXPECT_TRUE(report.at("problems").empty());
}

namespace {

void expect_exit_status(int exit_code, const std::string& command, const BenchDir& dir,
                        const Refusals& cases) {
  for (const auto& [extra, mentions] : cases) {
    std::vector<std::string> args = {"bench", command, "--store", dir.url()};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, exit_code) << describe(run);
    if (exit_code == 2) {  // a usage error points at --help, as CLI11's own do
      EXPECT_THAT(run.err, ::testing::HasSubstr("Run with --help"));
    }
    EXPECT_THAT(run.err, ::testing::HasSubstr(mentions));
    EXPECT_EQ(run.out, "");
  }
  // Nothing was written: the refusals come before a store is opened.
  EXPECT_FALSE(std::filesystem::exists(dir.file("bench.db")));
}

}  // namespace

void expect_refusals(const std::string& command, const BenchDir& dir, const Refusals& cases) {
  expect_exit_status(1, command, dir, cases);
}

void expect_usage_errors(const std::string& command, const BenchDir& dir, const Refusals& cases) {
  expect_exit_status(2, command, dir, cases);
}

void expect_in_memory_refused(const std::string& command, const std::vector<std::string>& extra) {
  for (const std::string url : {"memory:", "sqlite::memory:"}) {
    std::vector<std::string> args = {"bench", command, "--store", url};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, 1) << describe(run);
    EXPECT_THAT(run.err, ::testing::StartsWith("docket: "));
    EXPECT_THAT(run.err, ::testing::HasSubstr("durable commit"));
    EXPECT_EQ(run.out, "");
  }
}

void expect_unknown_option(const std::string& command, const std::string& option) {
  BenchDir dir;
  const ToolRun run = run_docket({"bench", command, "--store", dir.url(), option, "5"});
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, ::testing::HasSubstr(option));
}

}  // namespace docket::testing
