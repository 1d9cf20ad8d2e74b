// docket bench claim, events, inbox and outbox on DynamoDB Local
// (DOCKET_TEST_DYNAMODB_URL; missing fails the test): the document providers' bench cases
// (tests/tool/document_bench_cases.h) and the outbox's under table prefixes of the test's
// own.
#include <gtest/gtest.h>

#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "tool/bench_run.h"
#include "tool/document_bench_cases.h"
#include "tool/outbox_bench_report.h"

namespace docket::testing {
namespace {

// A claim cycle is the store's own two requests and the handler's effect PutItem, as
// Powertools' three; the raw side's tables are under its table_prefix.
INSTANTIATE_TEST_SUITE_P(DynamoDb, DocumentBench,
                         ::testing::Values(DocumentBenchCase{
                             .make = &bench_database<test_support::DynamoDbTables>,
                             .raw_prefix_option = "table_prefix",
                             .claim_messages = 300,
                             .redelivered_claim_messages = 300,
                             .claim_round_trips = 3.0,
                             .redelivery_round_trips = 1.0}));

// 120 messages relayed in passes of 40 by one relay, then by two (both sides refilled in
// TransactWriteItems of at most 100). Staging is two requests a message on both sides: the
// counter's UpdateItem, then the PutItem of the message alone (docket's unit of one
// outbox message commits it so: dynamodb_unit_single_write.cc). A raw pass is a Query of
// the pending index per shard (4), one TransactWriteItems leasing and one completing: 6;
// docket's claim also reads the parked index (4 Queries): 10.
TEST(DynamoDbOutboxBench, AddsUpWithTheRequestsOfEachSide) {
  const test_support::DynamoDbTables tables;
  const auto report = run_json({"bench", "outbox", "--store", tables.url(), "--messages", "120",
                                "--batch", "40", "--relays", "1", "2", "--json"});
  expect_outbox_bench_adds_up(report, 240);
  const auto& stage = report.at("round_trips_per_op");
  EXPECT_DOUBLE_EQ(stage.at("raw").get<double>(), 2.0) << report.dump();
  // docket's first unit also makes its tables when missing (set-up).
  EXPECT_GE(stage.at("docket").get<double>(), 2.0) << report.dump();
  EXPECT_LE(stage.at("docket").get<double>(), 2.0 + 4.0 / 120) << report.dump();
  const auto& trips = report.at("relay").at(0).at("round_trips_per_op");
  EXPECT_DOUBLE_EQ(trips.at("raw").get<double>(), 3 * 6.0 / 120) << report.dump();
  EXPECT_DOUBLE_EQ(trips.at("docket").get<double>(), 3 * 10.0 / 120) << report.dump();
}

}  // namespace
}  // namespace docket::testing
