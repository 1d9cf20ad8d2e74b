// docket bench claim, events, inbox and outbox on the Firestore emulator
// (DOCKET_TEST_FIRESTORE_URL; missing fails the test): the document providers' bench
// cases (tests/tool/document_bench_cases.h) and the outbox's under collection prefixes of
// the test's own.
#include <gtest/gtest.h>

#include "providers/firestore/tests/firestore_collections.h"
#include "tool/bench_run.h"
#include "tool/document_bench_cases.h"
#include "tool/outbox_bench_report.h"

namespace docket::testing {
namespace {

// A claim cycle is the store's own two commits (the claim's of a new entry, and the mark
// under the claim's update_time) and the handler's effect commit; a
// redelivery is the refused commit and the read that finds the entry processed. The raw
// side's collections are under its prefix.
INSTANTIATE_TEST_SUITE_P(Firestore, DocumentBench,
                         ::testing::Values(DocumentBenchCase{
                             .make = &bench_database<test_support::FirestoreCollections>,
                             .raw_prefix_option = "prefix",
                             .claim_messages = 200,
                             .redelivered_claim_messages = 100,
                             .claim_round_trips = 3.0,
                             .redelivery_round_trips = 2.0}));

// 120 messages relayed in passes of 40 by one relay, then by two (both sides refilled in
// commits of 100). Staging is two commits a message on both sides: the counter's
// increment, then the create. A raw pass is one query, one batchWrite leasing and one
// completing: 3; docket's the same (firestore_outbox_leases.h: its leases in one
// batchWrite after the query, its marks in one).
TEST(FirestoreOutboxBench, AddsUpWithTheRequestsOfEachSide) {
  const test_support::FirestoreCollections collections;
  const auto report = run_json({"bench", "outbox", "--store", collections.url(), "--messages",
                                "120", "--batch", "40", "--relays", "1", "2", "--json"});
  expect_outbox_bench_adds_up(report, 240);
  const auto& stage = report.at("round_trips_per_op");
  EXPECT_DOUBLE_EQ(stage.at("raw").get<double>(), 2.0) << report.dump();
  EXPECT_DOUBLE_EQ(stage.at("docket").get<double>(), 2.0) << report.dump();
  const auto& trips = report.at("relay").at(0).at("round_trips_per_op");
  EXPECT_DOUBLE_EQ(trips.at("raw").get<double>(), 3 * 3.0 / 120) << report.dump();
  EXPECT_DOUBLE_EQ(trips.at("docket").get<double>(), 3 * 3.0 / 120) << report.dump();
}

}  // namespace
}  // namespace docket::testing
