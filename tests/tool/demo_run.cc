#include "demo_run.h"

#include <gtest/gtest.h>

#include "tool_runner.h"

namespace docket::testing {

nlohmann::json expect_demo_ok(const std::string& store, int orders) {
  // A run that never ends fails the test instead of hanging it.
  const ToolRun run = run_docket_within(
      {"demo", "--store", store, "--orders", std::to_string(orders), "--faults", "heavy", "--json"},
      std::chrono::seconds(120));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  if (run.exit_code != 0) {
    return nullptr;
  }
  const auto summary = nlohmann::json::parse(run.out);
  EXPECT_TRUE(summary.at("ok").get<bool>()) << run.out;
  EXPECT_EQ(summary.at("orders"), orders) << run.out;
  // An earlier run's messages left in the outbox are relayed and processed too.
  const int earlier = summary.at("earlier_runs_processed").get<int>();
  EXPECT_EQ(summary.at("published"), orders + earlier) << run.out;
  EXPECT_EQ(summary.at("processed"), orders) << run.out;
  EXPECT_EQ(summary.at("invoices"), orders) << run.out;
  EXPECT_EQ(summary.at("duplicates_found"), 0) << run.out;
  EXPECT_EQ(summary.at("consumer_restarts"), 1) << run.out;
  EXPECT_GT(summary.at("redeliveries").get<int>(), 0) << run.out;  // the crash's, at least
  EXPECT_EQ(summary.at("deliveries").get<int>(), summary.at("processed").get<int>() + earlier +
                                                     summary.at("skipped_duplicates").get<int>())
      << run.out;
  return summary;
}

}  // namespace docket::testing
