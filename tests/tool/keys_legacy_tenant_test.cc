// docket keys legacy-tenant: recovering the tenant of a legacy '_'-joined inbox id.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reference_terms.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> legacy_args(const std::string& old_id, const std::string& message_id,
                                     const std::string& handler) {
  return {"keys",         "legacy-tenant", "--old-id",  old_id,
          "--message-id", message_id,      "--handler", handler};
}

TEST(KeysLegacyTenant, RecoversTheTenantBeforeTheSuffix) {
  const ToolRun run = run_docket(
      legacy_args("acme_corp_42_MyApp.Handlers.OrderHandler", "42", std::string(kOrderHandler)));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "acme_corp\n");
  EXPECT_EQ(run.err, "");
}

TEST(KeysLegacyTenant, UnderscoresInMessageIdStayWithTheSuffix) {
  const ToolRun run = run_docket(legacy_args("a_b_1_2_H", "1_2", "H"));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "a_b\n");
}

TEST(KeysLegacyTenant, JsonShowsTheIdsDocketWritesNow) {
  const ToolRun run =
      run_docket({"keys", "legacy-tenant", "--old-id", "acme_corp_42_MyApp.Handlers.OrderHandler",
                  "--message-id", "42", "--handler", std::string(kOrderHandler), "--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("tenant"), "acme_corp");
  EXPECT_EQ(json.at("old_id"), "acme_corp_42_MyApp.Handlers.OrderHandler");
  EXPECT_EQ(json.at("firestore").at("key"), "inbox:acme_corp:42:MyApp.Handlers.OrderHandler");
  EXPECT_EQ(json.at("firestore").at("limit"), 1500);
  EXPECT_EQ(json.at("elasticsearch").at("key"), "acme_corp:42:MyApp.Handlers.OrderHandler");
  EXPECT_EQ(json.at("elasticsearch").at("bytes"), 40);
}

TEST(KeysLegacyTenant, IdNotOnTheLegacyShapeIsAnError) {
  // Already re-keyed: ':' joins, so the '_' suffix is absent.
  const ToolRun run = run_docket(
      legacy_args("acme_corp:42:MyApp.Handlers.OrderHandler", "42", std::string(kOrderHandler)));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, StartsWith("docket: "));
  EXPECT_THAT(run.err, HasSubstr("not a legacy inbox id"));
}

TEST(KeysLegacyTenant, NothingBeforeTheSuffixIsAnError) {
  const ToolRun run = run_docket(legacy_args("_42_H", "42", "H"));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
}

TEST(KeysLegacyTenant, InvalidUtf8InTheRecoveredTenantIsRefused) {
  const ToolRun run = run_docket(legacy_args("ac\xC0\xAFme_42_H", "42", "H"));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("tenant"));
}

TEST(KeysLegacyTenant, RecoveryStandsWhenTheNewElasticsearchIdWouldNotFit) {
  const std::string old_id = std::string(kGuidTenant) + "_" + std::string(kGuidMessageId) + "_" +
                             std::string(kDictionaryHandler);
  const ToolRun run = run_docket({"keys", "legacy-tenant", "--old-id", old_id, "--message-id",
                                  std::string(kGuidMessageId), "--handler",
                                  std::string(kDictionaryHandler), "--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("665"));
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("tenant"), kGuidTenant);
  EXPECT_EQ(json.at("firestore").at("bytes"), 671);
  EXPECT_FALSE(json.at("elasticsearch").contains("key"));
  EXPECT_THAT(json.at("elasticsearch").at("refused").get<std::string>(), HasSubstr("512"));
}

}  // namespace
}  // namespace docket::testing
