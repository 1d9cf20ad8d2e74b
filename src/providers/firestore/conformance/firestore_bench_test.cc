// docket bench claim on the Firestore emulator (DOCKET_TEST_FIRESTORE_URL; missing fails
// the test), run as a child process: each side under a collection prefix of its own
// below the test's, the raw side the store's own requests, and the report adds up.
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
}

}  // namespace
}  // namespace docket::testing
