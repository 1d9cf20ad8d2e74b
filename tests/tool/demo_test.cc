// `docket demo`: the main job runs the order pipeline end to end and reports a
// checkable summary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "demo_run.h"
#include "tool_runner.h"
#if DOCKET_HAVE_POSTGRES
#include "providers/postgres/tests/postgres_schema.h"
#endif

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

TEST(DocketDemo, JsonSummaryShowsEveryOrderInvoicedOnceThroughHeavyFaults) {
  const ToolRun run =
      run_docket({"demo", "--orders", "300", "--faults", "heavy", "--seed", "3", "--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto summary = nlohmann::json::parse(run.out);
  EXPECT_TRUE(summary.at("ok").get<bool>());
  EXPECT_EQ(summary.at("orders"), 300);
  EXPECT_EQ(summary.at("published"), 300);
  EXPECT_EQ(summary.at("processed"), 300);
  EXPECT_EQ(summary.at("invoices"), 300);
  EXPECT_EQ(summary.at("duplicates_found"), 0);
  EXPECT_EQ(summary.at("consumer_restarts"), 1);
  // The faults happened, and the inbox absorbed them.
  EXPECT_GT(summary.at("redeliveries").get<int>(), 0);
  EXPECT_GT(summary.at("duplicates").get<int>(), 0);
  EXPECT_EQ(summary.at("deliveries").get<int>(),
            summary.at("processed").get<int>() + summary.at("skipped_duplicates").get<int>());
}

#if DOCKET_HAVE_POSTGRES
// The same pipeline on PostgreSQL, in a schema of its own; run twice, since repeated
// demos on one database must keep apart.
TEST(DocketDemo, RunsOnPostgresRepeatedly) {
  const test_support::PostgresSchema schema;
  for (int run = 1; run <= 2; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    expect_demo_ok(schema.url(), 200);
  }
}
#endif

TEST(DocketDemo, PlainOutputEndsWithTheVerdict) {
  const ToolRun run = run_docket({"demo", "--orders", "50", "--faults", "none"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.out, HasSubstr("invoices written        50"));
  EXPECT_THAT(run.out, HasSubstr("verdict: ok"));
  EXPECT_THAT(run.out, ::testing::Not(HasSubstr("\r")));  // not a terminal: plain lines
}

TEST(DocketDemo, RefusesBadOptions) {
  EXPECT_EQ(run_docket({"demo", "--faults", "extreme"}).exit_code, 2);
  EXPECT_EQ(run_docket({"demo", "--orders", "0"}).exit_code, 2);
  // Counts that would wrap or overflow, and a count past the demo's range, are usage
  // errors naming the option and its range: nothing runs, nothing hangs.
  for (const char* orders : {"-5", "99999999999999999999", "1.5", "12abc"}) {
    const ToolRun run = run_docket({"demo", "--orders", orders});
    EXPECT_EQ(run.exit_code, 2) << orders << ": " << describe(run);
    EXPECT_THAT(run.err, HasSubstr("--orders"));
  }
  const ToolRun huge = run_docket({"demo", "--orders", "18446744073709551615"});
  EXPECT_EQ(huge.exit_code, 2) << describe(huge);
  EXPECT_THAT(huge.err, HasSubstr("place 1 to 10000000 orders"));
  EXPECT_EQ(run_docket({"demo", "--seed", "-1"}).exit_code, 2);
  const ToolRun memory = run_docket({"demo", "--store", "memory:"});
  EXPECT_EQ(memory.exit_code, 1);
  EXPECT_THAT(memory.err, HasSubstr("sqlite:"));
}

}  // namespace
}  // namespace docket::testing
