// docket migrate tenant-rekey, what holds whatever the store: its usage errors, its
// help, and the refusal of providers that never stored untenanted keys. The re-key
// itself runs on DynamoDB Local and the Firestore emulator (tenant_rekey_cases.h, from
// the providers' conformance folders).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

TEST(MigrateTenantRekey, MissingTenantOrStoreIsAUsageError) {
  const ToolRun no_tenant =
      run_docket({"migrate", "tenant-rekey", "--store", "dynamodb://127.0.0.1:1?region=x"});
  EXPECT_EQ(no_tenant.exit_code, 2) << describe(no_tenant);
  EXPECT_THAT(no_tenant.err, HasSubstr("--tenant"));
  const ToolRun no_store = run_docket({"migrate", "tenant-rekey", "--tenant", "__default__"});
  EXPECT_EQ(no_store.exit_code, 2) << describe(no_store);
}

TEST(MigrateTenantRekey, HelpNamesTheSentinelsAndWhyOthersNeedYes) {
  const ToolRun help = run_docket({"migrate", "tenant-rekey", "--help"});
  EXPECT_EQ(help.exit_code, 0) << describe(help);
  EXPECT_THAT(help.out, HasSubstr("__default__"));
  EXPECT_THAT(help.out, HasSubstr("__untenanted__"));
  EXPECT_THAT(help.out, HasSubstr("mistyped tenant"));
  EXPECT_THAT(help.out, HasSubstr("--dry-run"));
}

TEST(MigrateTenantRekey, ABlankTenantIsRefusedBeforeTheStoreIsOpened) {
  // No server listens on port 1: the refusal comes before any request.
  const ToolRun blank = run_docket(
      {"migrate", "tenant-rekey", "--store", "dynamodb://127.0.0.1:1?region=x", "--tenant", ""});
  EXPECT_EQ(blank.exit_code, 1) << describe(blank);
  EXPECT_THAT(blank.err, HasSubstr("--tenant"));
  EXPECT_THAT(blank.err, HasSubstr("nothing was read or written"));
}

// A type naming the split of a legacy key is a term of the new key: an empty one, or
// one that is not UTF-8, is refused as the tenant is, before the store is opened (no
// server listens on port 1), naming the option and never echoing the raw bytes.
TEST(MigrateTenantRekey, AnEmptyOrMalformedTypeIsRefusedBeforeTheStoreIsOpened) {
  const std::vector<std::string> base{"migrate",  "tenant-rekey",
                                      "--store",  "dynamodb://127.0.0.1:1?region=x",
                                      "--tenant", "__default__"};
  std::vector<std::string> empty = base;
  empty.insert(empty.end(), {"--aggregate-type", "order", "--aggregate-type", ""});
  const ToolRun empty_type = run_docket(empty);
  EXPECT_NE(empty_type.exit_code, 0) << describe(empty_type);
  EXPECT_THAT(empty_type.err, HasSubstr("--aggregate-type is empty"));
  EXPECT_THAT(empty_type.err, HasSubstr("nothing was read or written"));

  std::vector<std::string> malformed = base;
  malformed.insert(malformed.end(), {"--saga-type", "check\xffout"});
  const ToolRun malformed_type = run_docket(malformed);
  EXPECT_NE(malformed_type.exit_code, 0) << describe(malformed_type);
  EXPECT_THAT(malformed_type.err, HasSubstr("--saga-type is not valid UTF-8"));
  EXPECT_THAT(malformed_type.err, HasSubstr("nothing was read or written"));
  EXPECT_EQ(malformed_type.err.find('\xff'), std::string::npos) << "the raw byte is not echoed";
}

TEST(MigrateTenantRekey, AProviderKeyedByColumnsIsRefused) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("docket-rekey-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".db");
  const ToolRun run = run_docket({"migrate", "tenant-rekey", "--store", "sqlite://" + file.string(),
                                  "--tenant", "__default__"});
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("sqlite provider never stored"));
  EXPECT_FALSE(std::filesystem::exists(file)) << "nothing opened, nothing created";
}

}  // namespace
}  // namespace docket::testing
