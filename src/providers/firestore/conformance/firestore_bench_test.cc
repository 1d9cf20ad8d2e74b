// docket bench claim and docket bench inbox on the Firestore emulator
// (DOCKET_TEST_FIRESTORE_URL; missing fails the test), run as a child process: each side
// under a collection prefix of its own below the test's, the raw side the store's own
// requests, and the report adds up.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "providers/firestore/tests/firestore_collections.h"
#include "tool/bench_run.h"

namespace docket::testing {
namespace {

TEST(BenchClaim, FirestoreJsonReportAddsUp) {
  const test_support::FirestoreCollections collections;
  const auto report = run_json({"bench", "claim", "--store", collections.url(), "--messages", "200",
                                "--threads", "2", "--json"});
  expect_claim_report(report, 200, 2);
  EXPECT_EQ(report.at("store"), collections.url());
  EXPECT_THAT(report.at("raw_store").get<std::string>(),
              ::testing::HasSubstr("prefix=" + collections.prefix() + "docket_bench_raw_"));
  // Requests counted a claim cycle: the store's own four and the handler's effect
  // commit, the same on both sides.
  EXPECT_EQ(report.at("round_trips_per_op").at("docket"), 5.0) << report.dump();
  EXPECT_EQ(report.at("round_trips_per_op").at("raw"), 5.0) << report.dump();
}

// Half the messages delivered again: a redelivery reads the processed entry and stops
// (one batchGet), writing no effect; one effect document per message on both sides.
TEST(BenchClaim, FirestoreRedeliveriesWriteNoSecondEffect) {
  const test_support::FirestoreCollections collections;
  const auto report = run_json({"bench", "claim", "--store", collections.url(), "--messages", "100",
                                "--duplicates", "0.5", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("skipped"), 50);
  EXPECT_EQ(report.at("raw_skipped"), 50);
  EXPECT_EQ(report.at("effect_items"), 100);
  EXPECT_EQ(report.at("raw_effect_items"), 100);
  EXPECT_EQ(report.at("effects_exactly_once"), true);
  EXPECT_DOUBLE_EQ(report.at("round_trips_per_op").at("docket").get<double>(), 550.0 / 150);
  EXPECT_DOUBLE_EQ(report.at("round_trips_per_op").at("raw").get<double>(), 550.0 / 150);
}

// One delivery a commit and batches of 20, half the messages delivered twice, one within
// a batch among them: every message processed once with its one effect on both sides,
// every second delivery skipped (the report's own checks count the documents).
TEST(BenchInbox, FirestoreJsonReportAddsUp) {
  for (const std::string batch : {"1", "20"}) {
    const test_support::FirestoreCollections collections;
    const auto report = run_json({"bench", "inbox", "--store", collections.url(), "--messages",
                                  "120", "--batch", batch, "--threads", "2", "--json"});
    EXPECT_EQ(report.at("ok"), true) << report.dump();
    EXPECT_TRUE(report.at("problems").empty()) << report.dump();
    EXPECT_EQ(report.at("processed"), 120) << batch;
    EXPECT_EQ(report.at("skipped_duplicates"), 60) << batch;
    EXPECT_EQ(report.at("effects"), 120) << batch;
    EXPECT_EQ(report.at("raw").at("effects"), 120) << batch;
  }
}

TEST(BenchEvents, FirestoreJsonReportAddsUp) {
  const test_support::FirestoreCollections collections;
  const auto report =
      run_json({"bench", "events", "--store", collections.url(), "--appends", "40", "--streams",
                "10", "--loads", "20", "--stream-length", "5", "--threads", "2", "--json"});
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

// With the dedup check at commit, a delivery is one request, a duplicate's included:
// the store tells from the refused commit that its dedup record was taken, and the
// dispatcher does not ask again (at most a request or two of set-up besides).
TEST(BenchInbox, FirestoreDedupAtCommitIsOneRequestADelivery) {
  const test_support::FirestoreCollections collections;
  const auto report = run_json({"bench", "inbox", "--store", collections.url(), "--messages", "100",
                                "--dedup-at-commit", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("skipped_duplicates"), 50) << report.dump();
  const auto& trips = report.at("round_trips_per_op");
  EXPECT_EQ(trips.at("raw"), 1.0) << report.dump();
  EXPECT_LE(trips.at("docket").get<double>(), 1.0 + 2.0 / 150) << report.dump();
}

}  // namespace
}  // namespace docket::testing
