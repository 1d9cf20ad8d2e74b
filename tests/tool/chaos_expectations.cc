#include "chaos_expectations.h"

#include <gtest/gtest.h>

#include "tool_runner.h"

namespace docket::testing {

nlohmann::json expect_chaos_ok(std::vector<std::string> args, int kills) {
  args.insert(args.begin(), "chaos");
  args.insert(args.end(), {"--kills", std::to_string(kills), "--json"});
  const ToolRun run = run_docket(args, std::nullopt, kChaosTimeLimit);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  const auto report = nlohmann::json::parse(run.out, nullptr, false);
  EXPECT_FALSE(report.is_discarded()) << describe(run);
  if (report.is_discarded()) {
    return {};
  }
  EXPECT_EQ(report.at("kills"), kills) << run.out;
  EXPECT_GT(report.at("orders").get<int>(), 0) << run.out;
  EXPECT_EQ(report.at("invoices"), report.at("orders")) << run.out;
  EXPECT_EQ(report.at("lost"), 0) << run.out;
  EXPECT_EQ(report.at("doubled"), 0) << run.out;
  EXPECT_EQ(report.at("ok"), true) << run.out;
  return report;
}

}  // namespace docket::testing
