// docket bench claim on DynamoDB Local (DOCKET_TEST_DYNAMODB_URL; missing fails the
// test), run as a child process: each side under a table prefix of its own below the
// test's, the raw side the store's own requests, and the report adds up.
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
}

}  // namespace
}  // namespace docket::testing
