// docket bench claim, events and inbox on DynamoDB Local (DOCKET_TEST_DYNAMODB_URL;
// missing fails the test), run as a child process: each side under a table prefix of
// its own below the test's (deleted with the test's), and the report adds up (its own
// checks read both sides' tables bypassing docket, the claim bench's effects among
// them).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "tool/bench_run.h"

namespace docket::testing {
namespace {

TEST(BenchClaim, DynamoDbJsonReportAddsUp) {
  const test_support::DynamoDbTables tables;
  const auto report = run_json(
      {"bench", "claim", "--store", tables.url(), "--messages", "300", "--threads", "2", "--json"});
  expect_claim_report(report, 300, 2);
  EXPECT_EQ(report.at("store"), tables.url());
  EXPECT_THAT(report.at("raw_store").get<std::string>(),
              ::testing::HasSubstr("table_prefix=" + tables.prefix() + "docket_bench_raw_"));
  // Requests counted a claim cycle: the store's own two and the handler's effect
  // PutItem, the same on both sides, as Powertools' three.
  EXPECT_EQ(report.at("round_trips_per_op").at("docket"), 3.0) << report.dump();
  EXPECT_EQ(report.at("round_trips_per_op").at("raw"), 3.0) << report.dump();
}

// The Powertools harness's dup50 case: half the messages delivered again. A redelivery
// is one refused UpdateItem and writes no effect: (300 * 3 + 150) / 450 requests a
// delivery; without the effect, the claim and the mark alone.
TEST(BenchClaim, DynamoDbRedeliveriesAndNoEffect) {
  const test_support::DynamoDbTables tables;
  const auto dup = run_json({"bench", "claim", "--store", tables.url(), "--messages", "300",
                             "--duplicates", "0.5", "--json"});
  EXPECT_EQ(dup.at("ok"), true) << dup.dump();
  EXPECT_EQ(dup.at("deliveries"), 450);
  EXPECT_EQ(dup.at("skipped"), 150);
  EXPECT_EQ(dup.at("raw_skipped"), 150);
  EXPECT_EQ(dup.at("effect_items"), 300);
  EXPECT_EQ(dup.at("raw_effect_items"), 300);
  EXPECT_EQ(dup.at("effects_exactly_once"), true);
  EXPECT_DOUBLE_EQ(dup.at("round_trips_per_op").at("docket").get<double>(), 1050.0 / 450);
  EXPECT_DOUBLE_EQ(dup.at("round_trips_per_op").at("raw").get<double>(), 1050.0 / 450);

  const auto bare = run_json(
      {"bench", "claim", "--store", tables.url(), "--messages", "100", "--no-effect", "--json"});
  EXPECT_EQ(bare.at("ok"), true) << bare.dump();
  EXPECT_EQ(bare.at("effect_items"), 0);
  EXPECT_EQ(bare.at("round_trips_per_op").at("docket"), 2.0) << bare.dump();
  EXPECT_EQ(bare.at("round_trips_per_op").at("raw"), 2.0) << bare.dump();
}

TEST(BenchEvents, DynamoDbJsonReportAddsUp) {
  const test_support::DynamoDbTables tables;
  const auto report =
      run_json({"bench", "events", "--store", tables.url(), "--appends", "40", "--streams", "10",
                "--loads", "20", "--stream-length", "5", "--threads", "2", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_TRUE(report.at("problems").empty()) << report.dump();
  EXPECT_EQ(report.at("appends"), 160);  // four cases of 40
  EXPECT_EQ(report.at("load").at("events"), 100);
  EXPECT_EQ(report.at("load").at("raw_events"), 100);
  for (const auto& c : report.at("cases")) {
    EXPECT_EQ(c.at("stored_events"), c.at("events")) << c.dump();
    EXPECT_EQ(c.at("raw").at("stored_events"), c.at("raw").at("events")) << c.dump();
  }
}

// One delivery a transaction and batches of 20, half the messages delivered twice,
// one within a batch among them: every message processed once with its one effect on
// both sides, every second delivery skipped (the report's own checks count the items).
TEST(BenchInbox, DynamoDbJsonReportAddsUp) {
  for (const std::string batch : {"1", "20"}) {
    const test_support::DynamoDbTables tables;
    const auto report = run_json({"bench", "inbox", "--store", tables.url(), "--messages", "120",
                                  "--batch", batch, "--threads", "2", "--json"});
    EXPECT_EQ(report.at("ok"), true) << report.dump();
    EXPECT_TRUE(report.at("problems").empty()) << report.dump();
    EXPECT_EQ(report.at("processed"), 120) << batch;
    EXPECT_EQ(report.at("skipped_duplicates"), 60) << batch;
    EXPECT_EQ(report.at("effects"), 120) << batch;
  }
}

// With the dedup check at commit, a delivery is one request, a duplicate's included:
// the store tells from the refused commit that its dedup record was taken, and the
// dispatcher does not ask again (at most a request or two of set-up besides).
TEST(BenchInbox, DynamoDbDedupAtCommitIsOneRequestADelivery) {
  const test_support::DynamoDbTables tables;
  const auto report = run_json({"bench", "inbox", "--store", tables.url(), "--messages", "100",
                                "--dedup-at-commit", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("skipped_duplicates"), 50) << report.dump();
  const auto& trips = report.at("round_trips_per_op");
  EXPECT_EQ(trips.at("raw"), 1.0) << report.dump();
  EXPECT_LE(trips.at("docket").get<double>(), 1.0 + 2.0 / 150) << report.dump();
}

}  // namespace
}  // namespace docket::testing
