#include "document_bench_cases.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "bench_run.h"

namespace docket::testing {

void PrintTo(const DocumentBenchCase& bench_case, std::ostream* os) {
  *os << "raw side under " << bench_case.raw_prefix_option << ", " << bench_case.claim_round_trips
      << " requests a claim, " << bench_case.redelivery_round_trips << " a redelivery";
}

TEST_P(DocumentBench, ClaimJsonReportAddsUp) {
  const DocumentBenchCase& bench = GetParam();
  const auto report = run_json({"bench", "claim", "--store", database_->url(), "--messages",
                                std::to_string(bench.claim_messages), "--threads", "2", "--json"});
  expect_claim_report(report, bench.claim_messages, 2);
  EXPECT_EQ(report.at("store"), database_->url());
  EXPECT_THAT(report.at("raw_store").get<std::string>(),
              ::testing::HasSubstr(bench.raw_prefix_option + "=" + database_->prefix() +
                                   "docket_bench_raw_"));
  EXPECT_EQ(report.at("round_trips_per_op").at("docket"), bench.claim_round_trips) << report.dump();
  EXPECT_EQ(report.at("round_trips_per_op").at("raw"), bench.claim_round_trips) << report.dump();
}

// The Powertools harness's dup50 case: half the messages delivered again. A redelivery
// finds the processed record and stops, and writes no effect: one effect per message on
// both sides. Without the effect, a cycle is the store's own requests.
TEST_P(DocumentBench, ClaimRedeliveriesAndNoEffect) {
  const DocumentBenchCase& bench = GetParam();
  const int messages = bench.redelivered_claim_messages;
  const auto dup = run_json({"bench", "claim", "--store", database_->url(), "--messages",
                             std::to_string(messages), "--duplicates", "0.5", "--json"});
  EXPECT_EQ(dup.at("ok"), true) << dup.dump();
  EXPECT_EQ(dup.at("deliveries"), messages + messages / 2);
  EXPECT_EQ(dup.at("skipped"), messages / 2);
  EXPECT_EQ(dup.at("raw_skipped"), messages / 2);
  EXPECT_EQ(dup.at("effect_items"), messages);
  EXPECT_EQ(dup.at("raw_effect_items"), messages);
  EXPECT_EQ(dup.at("effects_exactly_once"), true);
  const double per_delivery =
      (messages * bench.claim_round_trips + messages / 2 * bench.redelivery_round_trips) /
      (messages + messages / 2);
  EXPECT_DOUBLE_EQ(dup.at("round_trips_per_op").at("docket").get<double>(), per_delivery);
  EXPECT_DOUBLE_EQ(dup.at("round_trips_per_op").at("raw").get<double>(), per_delivery);

  const auto bare = run_json({"bench", "claim", "--store", database_->url(), "--messages", "100",
                              "--no-effect", "--json"});
  EXPECT_EQ(bare.at("ok"), true) << bare.dump();
  EXPECT_EQ(bare.at("effect_items"), 0);
  EXPECT_EQ(bare.at("round_trips_per_op").at("docket"), bench.claim_round_trips - 1) << bare.dump();
  EXPECT_EQ(bare.at("round_trips_per_op").at("raw"), bench.claim_round_trips - 1) << bare.dump();
}

TEST_P(DocumentBench, EventsJsonReportAddsUp) {
  const auto report =
      run_json({"bench", "events", "--store", database_->url(), "--appends", "40", "--streams",
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

// On one thread, with no conflicts, every append is one request on both sides: the
// expected version is one the side appended itself, so nothing needs reading first.
TEST_P(DocumentBench, EveryAppendOnOneThreadIsOneRequest) {
  const auto report = run_json({"bench", "events", "--store", database_->url(), "--appends", "20",
                                "--streams", "5", "--loads", "1", "--threads", "1", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  for (const auto& c : report.at("cases")) {
    EXPECT_EQ(c.at("conflicts"), 0) << c.dump();
    EXPECT_EQ(c.at("round_trips_per_op").at("docket"), 1.0) << c.dump();
    EXPECT_EQ(c.at("round_trips_per_op").at("raw"), 1.0) << c.dump();
  }
}

// One delivery a transaction and batches of 20, half the messages delivered twice,
// one within a batch among them: every message processed once with its one effect on
// both sides, every second delivery skipped (the report's own checks count the records).
TEST_P(DocumentBench, InboxJsonReportAddsUp) {
  for (const std::string batch : {"1", "20"}) {
    const std::unique_ptr<BenchDatabase> database = GetParam().make();
    const auto report = run_json({"bench", "inbox", "--store", database->url(), "--messages", "120",
                                  "--batch", batch, "--threads", "2", "--json"});
    EXPECT_EQ(report.at("ok"), true) << report.dump();
    EXPECT_TRUE(report.at("problems").empty()) << report.dump();
    EXPECT_EQ(report.at("processed"), 120) << batch;
    EXPECT_EQ(report.at("skipped_duplicates"), 60) << batch;
    EXPECT_EQ(report.at("effects"), 120) << batch;
    EXPECT_EQ(report.at("raw").at("effects"), 120) << batch;
  }
}

// With the dedup check at commit, a delivery is one request, a duplicate's included:
// the store tells from the refused commit that its dedup record was taken, and the
// dispatcher does not ask again (at most a request or two of set-up besides).
TEST_P(DocumentBench, InboxDedupAtCommitIsOneRequestADelivery) {
  const auto report = run_json({"bench", "inbox", "--store", database_->url(), "--messages", "100",
                                "--dedup-at-commit", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("skipped_duplicates"), 50) << report.dump();
  const auto& trips = report.at("round_trips_per_op");
  EXPECT_EQ(trips.at("raw"), 1.0) << report.dump();
  EXPECT_LE(trips.at("docket").get<double>(), 1.0 + 2.0 / 150) << report.dump();
}

// With the default check, the raw side sends what docket's store sends: a read of the
// dedup record before each delivery's commit, and for a duplicate the read alone. Half
// the messages delivered twice: (100 x 2 + 50 x 1) / 150 requests a delivery.
TEST_P(DocumentBench, InboxDefaultCheckRawSendsTheRequestsDocketSends) {
  const auto report =
      run_json({"bench", "inbox", "--store", database_->url(), "--messages", "100", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("skipped_duplicates"), 50) << report.dump();
  EXPECT_EQ(report.at("raw").at("skipped_duplicates"), 50) << report.dump();
  const auto& trips = report.at("round_trips_per_op");
  EXPECT_DOUBLE_EQ(trips.at("raw").get<double>(), 250.0 / 150) << report.dump();
  EXPECT_GE(trips.at("docket").get<double>(), 250.0 / 150) << report.dump();
  EXPECT_LE(trips.at("docket").get<double>(), 252.0 / 150) << report.dump();
}

// Instantiated by the document providers' own files (src/providers/<name>/conformance/),
// in a build that tests one.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(DocumentBench);

}  // namespace docket::testing
