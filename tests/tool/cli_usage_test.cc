// The command line itself: --help, usage errors (exit 2), unknown providers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr int kUsage = 2;

TEST(DocketCli, HelpOnEveryKeysSubcommandExitsZeroAndShowsTheShape) {
  const std::vector<std::pair<std::string, std::string>> shape = {
      {"inbox", "inbox:{tenant}:{messageId}:{handler}"},
      {"stream", "t:{tenant}:{aggregateType}:{aggregateId}:{version}"},
      {"saga", "SAGA#t:{tenant}:{sagaId}"},
      {"snapshot", "SNAPSHOT#t:{tenant}:{aggregateType}:{aggregateId}"},
      {"legacy-tenant", "{tenant}_{messageId}_{handler}"},
  };
  for (const auto& [command, text] : shape) {
    const ToolRun run = run_docket({"keys", command, "--help"});
    EXPECT_EQ(run.exit_code, 0) << command << ": " << describe(run);
    EXPECT_THAT(run.out, HasSubstr(text)) << command;
    if (command != "legacy-tenant") {
      EXPECT_THAT(run.out, HasSubstr("--provider")) << command;
      EXPECT_THAT(run.out, HasSubstr("firestore")) << command;
    }
  }
}

TEST(DocketCli, TopLevelAndGroupHelpListTheCommands) {
  const ToolRun top = run_docket({"--help"});
  EXPECT_EQ(top.exit_code, 0) << describe(top);
  EXPECT_THAT(top.out, HasSubstr("keys"));
  const ToolRun keys = run_docket({"keys", "--help"});
  EXPECT_EQ(keys.exit_code, 0) << describe(keys);
  for (const char* command : {"inbox", "stream", "saga", "snapshot", "legacy-tenant"}) {
    EXPECT_THAT(keys.out, HasSubstr(command));
  }
}

TEST(DocketCli, MissingCommandIsAUsageError) {
  EXPECT_EQ(run_docket({}).exit_code, kUsage);
  EXPECT_EQ(run_docket({"keys"}).exit_code, kUsage);
  EXPECT_EQ(run_docket({"keys", "nonsense"}).exit_code, kUsage);
}

TEST(DocketCli, MissingRequiredOptionIsAUsageError) {
  const ToolRun run = run_docket(
      {"keys", "inbox", "--provider", "firestore", "--tenant", "acme", "--handler", "H"});
  EXPECT_EQ(run.exit_code, kUsage) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, StartsWith("docket: "));
  EXPECT_THAT(run.err, HasSubstr("--message-id"));
}

TEST(DocketCli, UnknownProviderListsTheValidOnes) {
  const ToolRun run = run_docket({"keys", "inbox", "--provider", "cassandra", "--tenant", "a",
                                  "--message-id", "1", "--handler", "H"});
  EXPECT_EQ(run.exit_code, kUsage) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("cassandra"));
  EXPECT_THAT(run.err, HasSubstr("firestore elasticsearch cosmos mongodb redis dynamodb"));
}

TEST(DocketCli, NonNumericVersionIsAUsageError) {
  const ToolRun run =
      run_docket({"keys", "stream", "--provider", "firestore", "--tenant", "a", "--aggregate-type",
                  "Order", "--aggregate-id", "1", "--version", "three"});
  EXPECT_EQ(run.exit_code, kUsage) << describe(run);
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace docket::testing
