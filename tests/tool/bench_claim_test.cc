// docket bench claim: the JSON report's invariants on a real SQLite file and on the real
// PostgreSQL test server (never its speed: the machine's load decides that), the
// handler's effects read back from the files, and refused stores and options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_run.h"
#include "claim_effect.h"
#include "providers/postgres/tests/postgres_env.h"
#include "sqlite_raw.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

TEST(BenchClaim, JsonReportAddsUp) {
  BenchDir dir;
  const auto report =
      run_json({"bench", "claim", "--store", dir.url(), "--messages", "300", "--json"});
  expect_claim_report(report, 300, 1);
  EXPECT_EQ(report.at("store"), dir.url());
  // 300 messages in slices of 200.
  EXPECT_EQ(report.at("slices"), 2);
  EXPECT_TRUE(std::filesystem::exists(dir.file("bench.db")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("bench.db.raw")));
}

TEST(BenchClaim, AnEmbeddedDatabaseCountsNoRoundTrips) {
  BenchDir dir;
  const auto report =
      run_json({"bench", "claim", "--store", dir.url(), "--messages", "20", "--json"});
  EXPECT_TRUE(report.at("round_trips_per_op").is_null());
}

TEST(BenchClaim, ThreadedRunAcrossSlicesAddsUp) {
  BenchDir dir;
  const auto report = run_json(
      {"bench", "claim", "--store", dir.url(), "--messages", "2100", "--threads", "3", "--json"});
  expect_claim_report(report, 2100, 3);
  // Slices of 201 messages (whole slices for every thread): 10 full ones and a short one.
  EXPECT_EQ(report.at("slices"), 11);
}

// Batches: each thread claims and marks its deliveries ten at a time, a redelivery close
// behind its first starting the next batch; every check still holds on both sides.
TEST(BenchClaim, BatchedRunWithRedeliveriesAddsUp) {
  BenchDir dir;
  const auto report =
      run_json({"bench", "claim", "--store", dir.url(), "--messages", "600", "--duplicates", "0.5",
                "--threads", "2", "--batch", "10", "--json"});
  EXPECT_EQ(report.at("batch"), 10);
  EXPECT_EQ(report.at("deliveries"), 900);
  EXPECT_EQ(report.at("claimed"), 600);
  EXPECT_EQ(report.at("raw_claimed"), 600);
  EXPECT_EQ(report.at("skipped"), 300);
  EXPECT_EQ(report.at("raw_skipped"), 300);
  EXPECT_EQ(report.at("effect_messages"), 600);
  EXPECT_TRUE(report.at("ok").get<bool>());
}

// The warm-up's messages are claimed as the others, and checked, but left out of the
// timed slices and the rates.
TEST(BenchClaim, WarmUpMessagesAreClaimedAndCheckedButNotTimed) {
  BenchDir dir;
  const auto report = run_json(
      {"bench", "claim", "--store", dir.url(), "--messages", "300", "--warmup", "500", "--json"});
  expect_claim_report(report, 300, 1, 500);
  // 300 measured messages in slices of 200; the 500 before them are three more slices.
  EXPECT_EQ(report.at("slices"), 2);
}

// The effects a run's handlers wrote in `file`, and the distinct messages among them,
// read through the C API.
std::pair<std::int64_t, std::int64_t> stored_effects(const std::string& file,
                                                     const std::string& run_id) {
  bench::RawSqlite conn(file, bench::kRawBusyTimeout);
  return {conn.count(std::string(bench::kCountClaimEffectsSql), run_id),
          conn.count(std::string(bench::kCountClaimEffectMessagesSql), run_id)};
}

// Each side's file holds one effect row per message of the run, under distinct message
// ids, as the report says.
TEST(BenchClaim, EachSideStoresOneEffectRowPerMessage) {
  BenchDir dir;
  const auto report =
      run_json({"bench", "claim", "--store", dir.url(), "--messages", "250", "--json"});
  expect_claim_report(report, 250, 1);
  const std::string run_id = report.at("run_id");
  const std::pair<std::int64_t, std::int64_t> want{250, 250};
  EXPECT_EQ(stored_effects(dir.file("bench.db").string(), run_id), want);
  EXPECT_EQ(stored_effects(dir.file("bench.db.raw").string(), run_id), want);
}

// Half the messages delivered a second time, ten deliveries after the first (the
// Powertools harness's dup50 case): a redelivery is refused by try_claim and its
// handler never runs, so there is still one effect per message.
TEST(BenchClaim, RedeliveriesAreSkippedAndWriteNoSecondEffect) {
  BenchDir dir;
  const auto report = run_json({"bench", "claim", "--store", dir.url(), "--messages", "300",
                                "--duplicates", "0.5", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("duplicates"), 0.5);
  EXPECT_EQ(report.at("deliveries"), 450);
  EXPECT_EQ(report.at("duplicate_deliveries"), 150);
  for (const char* side : {"", "raw_"}) {
    const std::string p(side);
    EXPECT_EQ(report.at(p + "claimed"), 300) << side;
    EXPECT_EQ(report.at(p + "processed"), 300) << side;
    EXPECT_EQ(report.at(p + "skipped"), 150) << side;
    EXPECT_EQ(report.at(p + "effects"), 300) << side;
    EXPECT_EQ(report.at(p + "effect_items"), 300) << side;
    EXPECT_EQ(report.at(p + "effect_messages"), 300) << side;
  }
  EXPECT_EQ(report.at("effects_exactly_once"), true);
  // Deliveries a second over messages a second: 450 against 300 in the same seconds.
  EXPECT_NEAR(report.at("rate").get<double>() / report.at("handled_rate").get<double>(), 1.5, 1e-9);
  const std::pair<std::int64_t, std::int64_t> want{300, 300};
  EXPECT_EQ(stored_effects(dir.file("bench.db").string(), report.at("run_id")), want);
}

// --no-effect: the claim cycle alone, as the bench measured before effects; no row
// written, none expected.
TEST(BenchClaim, NoEffectWritesNoEffectRows) {
  BenchDir dir;
  const auto report = run_json(
      {"bench", "claim", "--store", dir.url(), "--messages", "120", "--no-effect", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("effect"), false);
  EXPECT_TRUE(report.at("effects_exactly_once").is_null());
  for (const char* field : {"effects", "raw_effects", "effect_items", "raw_effect_items"}) {
    EXPECT_EQ(report.at(field), 0) << field;
  }
  EXPECT_EQ(report.at("processed_entries"), 120);
  const std::pair<std::int64_t, std::int64_t> none{0, 0};
  EXPECT_EQ(stored_effects(dir.file("bench.db").string(), report.at("run_id")), none);
}

TEST(BenchClaim, SecondRunOnTheSameFileCountsOnlyItsOwnEntries) {
  BenchDir dir;
  const std::vector<std::string> args = {"bench",      "claim", "--store", dir.url(),
                                         "--messages", "40",    "--json"};
  const auto first = run_json(args);
  const auto second = run_json(args);
  expect_claim_report(second, 40, 1);
  EXPECT_NE(first.at("run_id"), second.at("run_id"));
}

TEST(BenchClaim, TextReportNamesBothSidesAndTheRatio) {
  BenchDir dir;
  const ToolRun run = run_docket({"bench", "claim", "--store", dir.url(), "--messages", "20"});
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("docket "));
  EXPECT_THAT(run.out, HasSubstr("raw "));
  EXPECT_THAT(run.out, HasSubstr("deliveries/s"));
  EXPECT_THAT(run.out, HasSubstr("messages/s"));
  EXPECT_THAT(run.out, HasSubstr("the handler's effect"));
  EXPECT_THAT(run.out, HasSubstr("effects 20)"));
  EXPECT_THAT(run.out, HasSubstr("ratio "));
  EXPECT_THAT(run.out, HasSubstr("alternating slices"));
}

// On the PostgreSQL test server (DOCKET_TEST_POSTGRES_URL; missing fails the test):
// docket in one schema, the libpq baseline in another, the same invariants as on SQLite.
TEST(BenchClaim, PostgresJsonReportAddsUp) {
  const std::string url = test_support::postgres_test_url();
  const auto report = run_json({"bench", "claim", "--store", url, "--messages", "300", "--json"});
  expect_claim_report(report, 300, 1);
  EXPECT_EQ(report.at("store"), url);
  EXPECT_THAT(report.at("raw_store").get<std::string>(), HasSubstr("docket_bench_raw"));
  // A claim cycle is the claim, the handler's effect and the mark, one statement each,
  // on both sides; the first of a connection also prepares.
  for (const char* side : {"docket", "raw"}) {
    const double trips = report.at("round_trips_per_op").at(side).get<double>();
    EXPECT_GE(trips, 3.0) << side;
    EXPECT_LE(trips, 3.0 + 10.0 / 300) << side;
  }
}

// Without the effect a cycle is the claim and the mark again; a redelivery, its refused
// claim alone: (300 * 2 + 150) / 450 statements a delivery.
TEST(BenchClaim, PostgresRoundTripsWithoutEffectAndWithRedeliveries) {
  const std::string url = test_support::postgres_test_url();
  const auto report = run_json({"bench", "claim", "--store", url, "--messages", "300",
                                "--duplicates", "0.5", "--no-effect", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("skipped"), 150);
  for (const char* side : {"docket", "raw"}) {
    const double trips = report.at("round_trips_per_op").at(side).get<double>();
    EXPECT_GE(trips, 750.0 / 450) << side;
    EXPECT_LE(trips, (750.0 + 10.0) / 450) << side;
  }
}

TEST(BenchClaim, PostgresThreadedRunAddsUp) {
  const auto report = run_json({"bench", "claim", "--store", test_support::postgres_test_url(),
                                "--messages", "1200", "--threads", "4", "--json"});
  expect_claim_report(report, 1200, 4);
}

TEST(BenchClaim, InMemoryStoresAreRefused) {
  expect_in_memory_refused("claim", {"--messages", "10"});
}

// An option value no run can use is a usage error (exit status 2, naming the option and
// its range), refused before anything is opened.
TEST(BenchClaim, UnusableNumbersAreRefused) {
  BenchDir dir;
  expect_usage_errors("claim", dir,
                      {{{"--messages", "0"}, "--messages is 0"},
                       {{"--messages", "10000001"}, "--messages is 10000001; pass 1 to 10000000"},
                       {{"--threads", "0"}, "--threads is 0"},
                       {{"--threads", "65"}, "--threads is 65; pass 1 to 64"},
                       {{"--batch", "0"}, "--batch is 0"},
                       {{"--batch", "101"}, "--batch is 101; pass 1 to 100"},
                       {{"--messages", "10000000", "--warmup", "1"},
                        "--warmup must leave --warmup + --messages at most 10000000"},
                       {{"--duplicates", "1.5"},
                        "--duplicates is 1.5; pass the share of messages delivered twice, 0 to 1"},
                       {{"--duplicates", "-0.25"}, "--duplicates is -0.25"}});
}

// Negative numbers and numbers past the option's type are usage errors (exit status
// 2, naming the option), refused before anything is opened.
TEST(BenchClaim, NegativeAndOverlongNumbersAreUsageErrors) {
  BenchDir dir;
  for (const auto& [option, value] :
       std::vector<std::pair<std::string, std::string>>{{"--messages", "-5"},
                                                        {"--threads", "-1"},
                                                        {"--messages", "99999999999999999999999"},
                                                        {"--threads", "18446744073709551616"},
                                                        {"--messages", "ten"}}) {
    const ToolRun run = run_docket({"bench", "claim", "--store", dir.url(), option, value});
    EXPECT_EQ(run.exit_code, 2) << option << " " << value << ": " << describe(run);
    EXPECT_THAT(run.err, HasSubstr(option)) << value;
    EXPECT_EQ(run.out, "");
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("bench.db")));
}

TEST(BenchClaim, UnknownOptionIsAUsageError) {
  expect_unknown_option("claim", "--message");
}

}  // namespace
}  // namespace docket::testing
