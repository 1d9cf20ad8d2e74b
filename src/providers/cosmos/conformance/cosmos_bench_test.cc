// docket bench claim, events, inbox and outbox on the Cosmos DB test server
// (DOCKET_TEST_COSMOS_URL; missing fails the test), run as a child process
// (tests/tool/bench_run.h) on a database of the test's own: each side is a database of
// its own beside it (<name>_docket_bench_docket, <name>_docket_bench_raw), dropped with
// it. The reports add up (their own checks read both sides' containers bypassing
// docket), the requests are those the raw sides' headers say (src/providers/cosmos/
// bench/), and each side's request units are read from x-ms-request-charge (docket's
// stores' clients counting into docket_milli_request_units(), the raw side's into its own
// total): the test server charges 1 for every answer, so on each side they equal its
// round trips, which they would not if a side's charges were lost or counted twice.
// The outbox bench makes databases of its run's own (<name>_docket_bench_ob_<hex>_docket
// and _raw), dropped when it ends.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_partition_ranges.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "tool/bench_run.h"
#include "tool/outbox_bench_report.h"
#include "tool/tool_runner.h"

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

// The names of the databases on the test server that begin with `prefix`.
std::vector<std::string> databases_named(const std::string& url, const std::string& prefix) {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(url));
  const cosmos::detail::Request request{.what = "list of databases",
                                        .method = "GET",
                                        .resource_type = "dbs",
                                        .resource_link = "",
                                        .path = "/dbs",
                                        .replay = cosmos::detail::Replay::kSafe};
  const cosmos::detail::Response response = client.send(request);
  if (response.status != 200) {
    client.fail(request, response);
  }
  std::vector<std::string> names;
  for (const auto& database : response.body.value("Databases", nlohmann::json::array())) {
    const std::string name = database.value("id", std::string());
    if (name.starts_with(prefix)) {
      names.push_back(name);
    }
  }
  return names;
}

// How many partition key ranges a container has on the test server (the package alone
// makes one; docket's patched server four), read from one the test makes in its database.
double ranges_of_a_container(const std::string& url) {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(url));
  client.ensure_container("bench_ranges_probe", "/pk");
  return static_cast<double>(
      cosmos::detail::read_partition_key_ranges(client, "bench_ranges_probe").size());
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

// An append holds at most 99 events on Cosmos DB (one batch of 100 operations, one of them
// the read): a run asking for more, as the default --stream-length of 100 does, is
// refused before any append, naming the limit and the option to change (exit status 2).
TEST_F(CosmosBench, EventsRefusesAppendsOverTheBatchLimit) {
  for (const std::vector<std::string>& extra : std::vector<std::vector<std::string>>{
           {"--appends", "5"},
           {"--appends", "5", "--stream-length", "20", "--events-per-append", "1", "100"}}) {
    std::vector<std::string> args{"bench", "events", "--store", url()};
    args.insert(args.end(), extra.begin(), extra.end());
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, 2) << describe(run);
    EXPECT_TRUE(run.out.empty()) << describe(run);
    EXPECT_THAT(run.err, ::testing::HasSubstr("at most 99")) << describe(run);
    EXPECT_THAT(run.err, ::testing::HasSubstr(extra.size() == 2 ? "pass --stream-length 99 or less"
                                                                : "pass --events-per-append 99"))
        << describe(run);
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

// 120 messages staged on one thread and relayed in passes of 40, by one relay, then by two
// (the bench refills both sides in transactions of at most 100 messages, a batch's
// operations). Staging is two requests a message on both sides: the draw of its sequence
// from the counter item and its write (a point create on both sides: docket's unit of
// one create sends it as one). A raw relay pass is R + 2 requests: one query of the due
// messages per partition key range (R of them; the ranges are read at set-up), one batch
// leasing them, one batch marking them done. docket's pass is R + 3: the same batch of
// leases and batch of marks (under the etags its leases returned), its pending query (one
// a range) and the query of the parked messages of ordering keys; the ranges are read
// once a second at most (cosmos_partition_range_cache.h), so a pass that reads them is
// R + 4 (its first, or every one on a machine that slow), R + 5 where one went. Both
// sides' databases are dropped when the run ends.
TEST_F(CosmosBench, OutboxAddsUpWithTheRequestsOfEachSide) {
  const auto report = run_json({"bench", "outbox", "--store", url(), "--messages", "120", "--batch",
                                "40", "--relays", "1", "2", "--json"});
  expect_outbox_bench_adds_up(report, 240);
  EXPECT_THAT(report.at("raw_store").get<std::string>(),
              ::testing::HasSubstr("database=" + database_.name() + "_docket_bench_ob_"));
  const auto& stage = report.at("round_trips_per_op");
  EXPECT_DOUBLE_EQ(stage.at("raw").get<double>(), 2.0) << report.dump();
  // docket's first unit also makes its store's containers when missing (set-up).
  EXPECT_GE(stage.at("docket").get<double>(), 2.0) << report.dump();
  EXPECT_LE(stage.at("docket").get<double>(), 2.0 + 4.0 / 120) << report.dump();
  const auto& one_relay = report.at("relay").at(0);
  EXPECT_EQ(one_relay.at("relays"), 1) << one_relay.dump();
  EXPECT_EQ(one_relay.at("passes"), 3) << one_relay.dump();
  EXPECT_EQ(one_relay.at("raw_passes"), 3) << one_relay.dump();
  const auto& trips = one_relay.at("round_trips_per_op");
  const double ranges = ranges_of_a_container(url());
  EXPECT_DOUBLE_EQ(trips.at("raw").get<double>(), 3 * (ranges + 2) / 120) << one_relay.dump();
  EXPECT_GE(trips.at("docket").get<double>(), 3 * (ranges + 3) / 120) << one_relay.dump();
  EXPECT_LE(trips.at("docket").get<double>(), 3 * (ranges + 5) / 120) << one_relay.dump();
  EXPECT_THAT(databases_named(url(), database_.name() + "_docket_bench_ob_"), ::testing::IsEmpty());
}

}  // namespace
}  // namespace docket::testing
