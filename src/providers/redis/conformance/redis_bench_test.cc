// `docket bench inbox`, `claim`, `events` and `outbox` on the Redis test server
// (DOCKET_TEST_REDIS_URL; missing fails the test), run as a child process
// (tests/tool/bench_run.h) under a key prefix of the test's own (RedisDatabase, deleted
// with the test's): each side under the prefix followed by its name, the reports' own
// checks reading both sides' keys bypassing docket, and the round trips each side sends.
//
// Round trips: the raw side counts its operations' alone; docket's provider counts
// every one it makes, a connection's AUTH and a script's first SCRIPT LOAD among them,
// so docket's side may exceed the operations' own by a few a run (kSetUpTrips).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "providers/redis/tests/redis_database.h"
#include "tool/bench_run.h"

namespace docket::testing {
namespace {

using test_support::RedisDatabase;
using ::testing::HasSubstr;

// A run's set-up round trips on docket's side: an AUTH per pooled connection (a thread
// each) and a SCRIPT LOAD per script, at most.
constexpr double kSetUpTrips = 4;

std::string raw_prefix(const RedisDatabase& db) {
  return "prefix=" + db.prefix() + "docket_bench_raw_";
}

// Both sides' trips an operation: the raw side's exactly `trips`, docket's the same
// give or take its set-up over `operations`.
void expect_trips(const nlohmann::json& report, double trips, double operations) {
  const auto& per_op = report.at("round_trips_per_op");
  EXPECT_DOUBLE_EQ(per_op.at("raw").get<double>(), trips) << report.dump();
  EXPECT_GE(per_op.at("docket").get<double>(), trips) << report.dump();
  EXPECT_LE(per_op.at("docket").get<double>(), trips + kSetUpTrips / operations) << report.dump();
}

// One delivery a script run and batches of 20, half the messages delivered twice (one
// within a batch among them): every message processed once with its one effect on both
// sides, every second delivery skipped.
TEST(RedisBench, InboxJsonReportAddsUp) {
  for (const std::string batch : {"1", "20"}) {
    const RedisDatabase db;
    const auto report = run_json({"bench", "inbox", "--store", db.url(), "--messages", "120",
                                  "--batch", batch, "--threads", "2", "--json"});
    EXPECT_EQ(report.at("ok"), true) << report.dump();
    EXPECT_TRUE(report.at("problems").empty()) << report.dump();
    EXPECT_THAT(report.at("raw_store").get<std::string>(), HasSubstr(raw_prefix(db)));
    EXPECT_EQ(report.at("processed"), 120) << batch;
    EXPECT_EQ(report.at("skipped_duplicates"), 60) << batch;
    EXPECT_EQ(report.at("dedup_rows"), 120) << batch;
    EXPECT_EQ(report.at("effects"), 120) << batch;
    EXPECT_EQ(report.at("raw").at("effects"), 120) << batch;
  }
}

// Checked at commit, a delivery is one script run on both sides; checked before the
// handlers, a read of the dedup record first, and for a duplicate the read alone: (100
// x 2 + 50 x 1) / 150 a delivery.
TEST(RedisBench, InboxRoundTripsADelivery) {
  const RedisDatabase db;
  const auto at_commit = run_json(
      {"bench", "inbox", "--store", db.url(), "--messages", "100", "--dedup-at-commit", "--json"});
  EXPECT_EQ(at_commit.at("ok"), true) << at_commit.dump();
  EXPECT_EQ(at_commit.at("skipped_duplicates"), 50) << at_commit.dump();
  expect_trips(at_commit, 1.0, 150);

  const auto before =
      run_json({"bench", "inbox", "--store", db.url(), "--messages", "100", "--json"});
  EXPECT_EQ(before.at("ok"), true) << before.dump();
  EXPECT_EQ(before.at("raw").at("skipped_duplicates"), 50) << before.dump();
  expect_trips(before, 250.0 / 150, 150);
}

// A claim cycle is the store's two script runs and the handler's effect write.
TEST(RedisBench, ClaimJsonReportAddsUp) {
  const RedisDatabase db;
  const auto report = run_json(
      {"bench", "claim", "--store", db.url(), "--messages", "300", "--threads", "2", "--json"});
  expect_claim_report(report, 300, 2);
  EXPECT_THAT(report.at("raw_store").get<std::string>(), HasSubstr(raw_prefix(db)));
  expect_trips(report, 3.0, 300);
}

// Half the messages delivered again: a redelivery finds the processed entry, costs its
// one claim run and writes no effect. Batches pipeline their claims and their marks.
TEST(RedisBench, ClaimRedeliveriesAndBatches) {
  const RedisDatabase db;
  const auto dup = run_json({"bench", "claim", "--store", db.url(), "--messages", "200",
                             "--duplicates", "0.5", "--json"});
  EXPECT_EQ(dup.at("ok"), true) << dup.dump();
  EXPECT_EQ(dup.at("skipped"), 100);
  EXPECT_EQ(dup.at("raw_skipped"), 100);
  EXPECT_EQ(dup.at("effect_items"), 200);
  EXPECT_EQ(dup.at("raw_effect_items"), 200);
  EXPECT_EQ(dup.at("effects_exactly_once"), true);
  expect_trips(dup, (200 * 3.0 + 100 * 1.0) / 300, 300);

  const auto batched = run_json({"bench", "claim", "--store", db.url(), "--messages", "200",
                                 "--batch", "10", "--no-effect", "--json"});
  EXPECT_EQ(batched.at("ok"), true) << batched.dump();
  EXPECT_EQ(batched.at("raw_processed"), 200) << batched.dump();
  expect_trips(batched, 2.0 / 10, 200);
}

TEST(RedisBench, EventsJsonReportAddsUp) {
  const RedisDatabase db;
  const auto report =
      run_json({"bench", "events", "--store", db.url(), "--appends", "40", "--streams", "10",
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

// On one thread, with no conflicts, every append is one script run on both sides.
TEST(RedisBench, EveryAppendOnOneThreadIsOneRoundTrip) {
  const RedisDatabase db;
  const auto report = run_json({"bench", "events", "--store", db.url(), "--appends", "20",
                                "--streams", "5", "--loads", "1", "--threads", "1", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  for (const auto& c : report.at("cases")) {
    EXPECT_EQ(c.at("conflicts"), 0) << c.dump();
    expect_trips(c, 1.0, 20);
  }
}

// Staging is one script run a message on both sides; a relay pass of 5 messages is two
// (claim, then the batch's completion), not one a message. Each run's keys are deleted
// when it ends.
TEST(RedisBench, OutboxJsonReportAddsUpAndDeletesTheRunsKeys) {
  const RedisDatabase db;
  const auto report = run_json(
      {"bench", "outbox", "--store", db.url(), "--messages", "40", "--batch", "5", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_TRUE(report.at("problems").empty()) << report.dump();
  EXPECT_EQ(report.at("relays"), nlohmann::json::array({1, 2}));
  EXPECT_EQ(report.at("published"), 80) << report.dump();  // 40 a relay run
  EXPECT_EQ(report.at("raw_published"), 80) << report.dump();
  EXPECT_EQ(report.at("done"), 80) << report.dump();
  EXPECT_EQ(report.at("raw_done"), 80) << report.dump();
  EXPECT_EQ(report.at("duplicates"), 0) << report.dump();
  EXPECT_THAT(report.at("raw_store").get<std::string>(),
              HasSubstr("prefix=" + db.prefix() + "docket_bench_ob_"));
  expect_trips(report, 1.0, 40);
  for (const auto& run : report.at("relay")) {
    const auto& trips = run.at("round_trips_per_op");
    EXPECT_GE(trips.at("raw").get<double>(), 2.0 / 5) << run.dump();
    EXPECT_LT(trips.at("docket").get<double>(), 1.0) << run.dump();
  }
  EXPECT_EQ(db.count("docket_bench_ob_"), 0);
}

}  // namespace
}  // namespace docket::testing
