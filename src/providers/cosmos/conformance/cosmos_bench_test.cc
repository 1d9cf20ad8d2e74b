// docket bench claim, events and inbox on the Cosmos DB test server
// (DOCKET_TEST_COSMOS_URL; missing fails the test), run as a child process
// (tests/tool/bench_run.h) on a database of the test's own: each side is a database of
// its own beside it (<name>_docket_bench_docket, <name>_docket_bench_raw), dropped with
// it. The reports add up (their own checks read both sides' containers bypassing
// docket), the requests are those the raw sides' headers say (src/providers/cosmos/
// bench/), and each side's request units are read from x-ms-request-charge (docket's
// stores' clients counting into docket_milli_request_units(), the raw side's into its own
// total): the test server charges 1 for every answer, so on each side they equal its
// round trips, which they would not if a side's charges were lost or counted twice.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "tool/bench_run.h"

namespace docket::testing {
namespace {

// Deletes the database `name` on the test server with everything in it.
void drop_bench_side(const std::string& url, const std::string& name) {
  const cosmos::detail::Client client(
      cosmos::detail::parse_store_url(test_support::cosmos_url_with_database(url, name)));
  const cosmos::detail::Request request{.what = "drop of a bench side's database",
                                        .method = "DELETE",
                                        .resource_type = "dbs",
                                        .resource_link = "dbs/" + name,
                                        .path = "/dbs/" + name,
                                        .replay = cosmos::detail::Replay::kSafe};
  const cosmos::detail::Response response = client.send(request);
  if (response.status != 204 && response.status != 404) {
    client.fail(request, response);
  }
}

class CosmosBench : public ::testing::Test {
 protected:
  ~CosmosBench() override {
    for (const std::string side : {"_docket_bench_docket", "_docket_bench_raw"}) {
      try {
        drop_bench_side(database_.url(), database_.name() + side);
      } catch (...) {  // a destructor cannot fail the test; the server is in memory anyway
      }
    }
  }

  std::string url() const { return database_.url(); }

  test_support::CosmosDatabase database_;
};

// The test server's charge: one request unit an answer.
constexpr double kUnitsARequest = 1.0;

// Half the messages delivered twice, one delivery a batch: the raw side reads the dedup
// item and sends one batch (dedup item and effect) per message, and reads alone for a
// duplicate, as docket's store does: (100 x 2 + 50 x 1) / 150 requests a delivery.
TEST_F(CosmosBench, InboxAddsUpAndRawSendsTheRequestsDocketSends) {
  const auto report = run_json({"bench", "inbox", "--store", url(), "--messages", "100", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_TRUE(report.at("problems").empty()) << report.dump();
  EXPECT_THAT(report.at("raw_store").get<std::string>(),
              ::testing::HasSubstr("database=" + database_.name() + "_docket_bench_raw"));
  EXPECT_EQ(report.at("processed"), 100);
  EXPECT_EQ(report.at("skipped_duplicates"), 50);
  EXPECT_EQ(report.at("effects"), 100);
  EXPECT_EQ(report.at("raw").at("effects"), 100);
  EXPECT_EQ(report.at("raw").at("skipped_duplicates"), 50);
  const auto& trips = report.at("round_trips_per_op");
  EXPECT_DOUBLE_EQ(trips.at("raw").get<double>(), 250.0 / 150) << report.dump();
  EXPECT_GE(trips.at("docket").get<double>(), 250.0 / 150) << report.dump();
  EXPECT_LE(trips.at("docket").get<double>(), 252.0 / 150) << report.dump();
  const auto& units = report.at("request_units_per_op");
  EXPECT_DOUBLE_EQ(units.at("raw").get<double>(), kUnitsARequest * 250.0 / 150) << report.dump();
  EXPECT_DOUBLE_EQ(units.at("docket").get<double>(),
                   kUnitsARequest * trips.at("docket").get<double>())
      << report.dump();
}

// Batches of 20 on two threads, a message delivered twice within a batch among them:
// every message processed once with its one effect on both sides.
TEST_F(CosmosBench, InboxBatchesAddUp) {
  const auto report = run_json({"bench", "inbox", "--store", url(), "--messages", "120", "--batch",
                                "20", "--threads", "2", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("processed"), 120);
  EXPECT_EQ(report.at("skipped_duplicates"), 60);
  EXPECT_EQ(report.at("effects"), 120);
  EXPECT_EQ(report.at("raw").at("effects"), 120);
}

// On one thread every append is one request on both sides (a create, or a batch proving
// the expected version), and every event lands at its version on both sides.
TEST_F(CosmosBench, EventsAddUpAndEveryAppendIsOneRequest) {
  const auto report = run_json({"bench", "events", "--store", url(), "--appends", "30", "--streams",
                                "5", "--loads", "10", "--stream-length", "5", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_TRUE(report.at("problems").empty()) << report.dump();
  EXPECT_EQ(report.at("appends"), 120);  // four cases of 30
  EXPECT_EQ(report.at("load").at("events"), 50);
  EXPECT_EQ(report.at("load").at("raw_events"), 50);
  for (const auto& c : report.at("cases")) {
    EXPECT_EQ(c.at("conflicts"), 0) << c.dump();
    EXPECT_EQ(c.at("stored_events"), c.at("events")) << c.dump();
    EXPECT_EQ(c.at("raw").at("stored_events"), c.at("raw").at("events")) << c.dump();
    EXPECT_EQ(c.at("round_trips_per_op").at("docket"), 1.0) << c.dump();
    EXPECT_EQ(c.at("round_trips_per_op").at("raw"), 1.0) << c.dump();
    EXPECT_DOUBLE_EQ(c.at("request_units_per_op").at("raw").get<double>(), kUnitsARequest)
        << c.dump();
    EXPECT_DOUBLE_EQ(c.at("request_units_per_op").at("docket").get<double>(), kUnitsARequest)
        << c.dump();
  }
}

// Two threads claiming: one entry and exactly one effect per message on both sides. A
// cycle is the create, the effect and the mark's replace under the create's etag on both
// sides: docket's store remembers the etag its claim's write returned, so its mark reads
// nothing first.
TEST_F(CosmosBench, ClaimAddsUpWithTheRequestsOfEachSide) {
  const auto report = run_json(
      {"bench", "claim", "--store", url(), "--messages", "200", "--threads", "2", "--json"});
  expect_claim_report(report, 200, 2);
  EXPECT_EQ(report.at("round_trips_per_op").at("raw"), 3.0) << report.dump();
  EXPECT_EQ(report.at("round_trips_per_op").at("docket"), 3.0) << report.dump();
  EXPECT_DOUBLE_EQ(report.at("request_units_per_op").at("raw").get<double>(), 3.0 * kUnitsARequest)
      << report.dump();
  EXPECT_DOUBLE_EQ(report.at("request_units_per_op").at("docket").get<double>(),
                   3.0 * kUnitsARequest)
      << report.dump();
}

// Half the messages delivered again: a redelivery finds the processed entry (a refused
// create and a read) and writes no effect, on both sides, with the same requests.
TEST_F(CosmosBench, ClaimRedeliveriesWriteNoSecondEffect) {
  const auto report = run_json(
      {"bench", "claim", "--store", url(), "--messages", "100", "--duplicates", "0.5", "--json"});
  EXPECT_EQ(report.at("ok"), true) << report.dump();
  EXPECT_EQ(report.at("skipped"), 50);
  EXPECT_EQ(report.at("raw_skipped"), 50);
  EXPECT_EQ(report.at("effect_items"), 100);
  EXPECT_EQ(report.at("raw_effect_items"), 100);
  EXPECT_EQ(report.at("effects_exactly_once"), true);
  EXPECT_DOUBLE_EQ(report.at("round_trips_per_op").at("raw").get<double>(),
                   (100 * 3.0 + 50 * 2.0) / 150)
      << report.dump();
  EXPECT_DOUBLE_EQ(report.at("round_trips_per_op").at("docket").get<double>(),
                   (100 * 3.0 + 50 * 2.0) / 150)
      << report.dump();
  EXPECT_DOUBLE_EQ(report.at("request_units_per_op").at("docket").get<double>(),
                   kUnitsARequest * (100 * 3.0 + 50 * 2.0) / 150)
      << report.dump();
}

}  // namespace
}  // namespace docket::testing
