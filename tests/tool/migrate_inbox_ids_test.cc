// docket migrate inbox-ids: exported inbox documents re-keyed from the legacy
// '_'-joined id, offline; every refusal named by line, nothing guessed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "reference_terms.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

ToolRun migrate(std::string_view provider, const std::string& input) {
  return run_docket({"migrate", "inbox-ids", "--provider", std::string(provider)}, input);
}

std::string exported(std::string_view id, std::string_view message_id,
                     std::string_view handler_type) {
  return nlohmann::json{{"id", id}, {"messageId", message_id}, {"handlerType", handler_type}}
             .dump() +
         "\n";
}

std::vector<nlohmann::ordered_json> output_lines(const ToolRun& run) {
  std::vector<nlohmann::ordered_json> lines;
  std::istringstream out(run.out);
  for (std::string line; std::getline(out, line);) {
    lines.push_back(nlohmann::ordered_json::parse(line));
  }
  return lines;
}

TEST(MigrateInboxIds, TheSpecificationsTwoCollidingIdsBecomeTwoDistinctIds) {
  // Both were stored as acme_corp_42_H: each document's own fields tell them apart.
  const ToolRun run = migrate("firestore", exported("acme_corp_42_" + std::string(kOrderHandler),
                                                    "corp_42", kOrderHandler) +
                                               exported("acme_corp_42_Other", "42", "Other"));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto lines = output_lines(run);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["id"], "inbox:acme:corp_42:MyApp.Handlers.OrderHandler");
  EXPECT_EQ(lines[0]["old_id"], "acme_corp_42_MyApp.Handlers.OrderHandler");
  EXPECT_EQ(lines[1]["id"], "inbox:acme_corp:42:Other");
  EXPECT_THAT(run.err, HasSubstr("2 re-keyed, 0 already on the current id"));
}

TEST(MigrateInboxIds, ElasticsearchIdsHaveNoPrefix) {
  const ToolRun run = migrate("elasticsearch", exported("acme_corp_42_H", "42", "H"));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(output_lines(run).at(0)["id"], "acme_corp:42:H");
}

// The document is carried byte for byte but for its id: the id's value replaced, and
// old_id and the recovered tenant added at its end. Numbers keep their spelling,
// strings their escapes, whitespace stays.
TEST(MigrateInboxIds, EveryOtherFieldIsKeptInItsOrderAndValue) {
  const std::string line =
      R"({"status":"Processed", "id" : "t_m_H","attempts":3,"big":18446744073709551615,)"
      R"("at":1.5e-3,"e":1E2,"z":-0,"s":"caf\u00e9\n","nested":{"z":1,"a":[true,null]},)"
      R"("messageId":"m","handlerType":"H" })";
  const ToolRun run = migrate("firestore", line + "\n");
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, R"({"status":"Processed", "id" : "inbox:t:m:H","attempts":3,)"
                     R"("big":18446744073709551615,"at":1.5e-3,"e":1E2,"z":-0,"s":"caf\u00e9\n",)"
                     R"("nested":{"z":1,"a":[true,null]},"messageId":"m","handlerType":"H" ,)"
                     R"("old_id":"t_m_H","tenant":"t"})"
                     "\n");
}

// A repeated key is the document's own: carried as it is, not collapsed.
TEST(MigrateInboxIds, ARepeatedKeyIsCarriedNotCollapsed) {
  const ToolRun run = migrate(
      "firestore", R"({"id":"a_1_H","k":1,"k":{"x":2,"x":3},"messageId":"1","handlerType":"H"})"
                   "\n");
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out,
            R"({"id":"inbox:a:1:H","k":1,"k":{"x":2,"x":3},"messageId":"1","handlerType":"H",)"
            R"("old_id":"a_1_H","tenant":"a"})"
            "\n");
}

// A field the re-key reads, given twice, has no one value: refused.
TEST(MigrateInboxIds, ARepeatedIdFieldIsRefused) {
  const ToolRun run =
      migrate("firestore", R"({"id":"a_1_H","messageId":"1","handlerType":"H","messageId":"2"})"
                           "\n");
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("line 1 has the field \"messageId\" twice"));
}

// A number no store holds (beyond a double's range) is refused with its line number;
// the lines after it are still re-keyed, and the exit status is 1.
TEST(MigrateInboxIds, ANumberBeyondADoublesRangeIsRefusedByLineAndTheRunGoesOn) {
  const ToolRun run =
      migrate("firestore", exported("a_1_H", "1", "H") +
                               R"({"id":"b_2_H","messageId":"2","handlerType":"H","n":[1e400]})"
                               "\n" +
                               R"({"id":"c_3_H","messageId":"3","handlerType":"H","n":-1e400})"
                               "\n" +
                               exported("d_4_H", "4", "H"));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  const auto lines = output_lines(run);
  ASSERT_EQ(lines.size(), 2u) << describe(run);
  EXPECT_EQ(lines[0]["id"], "inbox:a:1:H");
  EXPECT_EQ(lines[1]["id"], "inbox:d:4:H");
  EXPECT_THAT(run.err, HasSubstr("line 2 holds the number 1e400, beyond"));
  EXPECT_THAT(run.err, HasSubstr("line 3 holds the number -1e400, beyond"));
  EXPECT_THAT(run.err, HasSubstr("2 re-keyed, 0 already on the current id (passed over), 2 "
                                 "refused"));
}

// A line that is not JSON is named with where it goes wrong; the others still run.
TEST(MigrateInboxIds, MalformedJsonIsRefusedByLine) {
  const ToolRun run =
      migrate("firestore", R"({"id":"a_1_H","messageId":"1","handlerType":"H",})"
                           "\n" +
                               std::string(R"({"id":"a_1_H"} x)") + "\n" + R"({"id":"a_\x"})" +
                               "\n" + "\x80\n" + exported("b_2_H", "2", "H"));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  ASSERT_EQ(output_lines(run).size(), 1u) << describe(run);
  for (const std::string_view number : {"line 1 ", "line 2 ", "line 3 ", "line 4 "}) {
    EXPECT_THAT(run.err, HasSubstr(std::string(number) + "is not JSON"));
  }
  EXPECT_THAT(run.err, HasSubstr("4 refused"));
}

// The recovered tenant is written with the entry; an entry whose own tenant field
// names another tenant than its legacy id is refused, one that agrees is kept as is.
TEST(MigrateInboxIds, TheRecoveredTenantIsWrittenAndAnotherOneRefused) {
  const ToolRun run = migrate(
      "firestore", exported("acme_corp_42_H", "corp_42", "H") +
                       R"({"id":"acme_7_H","tenant":"acme","messageId":"7","handlerType":"H"})"
                       "\n" +
                       R"({"id":"acme_8_H","tenant":"globex","messageId":"8","handlerType":"H"})"
                       "\n");
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  const auto lines = output_lines(run);
  ASSERT_EQ(lines.size(), 2u) << describe(run);
  EXPECT_EQ(lines[0]["tenant"], "acme");
  EXPECT_EQ(run.out.substr(run.out.find('\n') + 1),
            R"({"id":"inbox:acme:7:H","tenant":"acme","messageId":"7","handlerType":"H",)"
            R"("old_id":"acme_7_H"})"
            "\n");
  EXPECT_THAT(run.err, HasSubstr("line 3 names the tenant \"globex\" in its own field"));
}

TEST(MigrateInboxIds, SeparatorsSlashesPercentsSentinelsAndNonAsciiTermsAreEncoded) {
  const ToolRun run =
      migrate("firestore", exported("__untenanted___a:b/c%d_H__", "a:b/c%d", "H__") +
                               exported("zürich_n°1_Handler", "n°1", "Handler"));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto lines = output_lines(run);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["id"], "inbox:__untenanted__:a%3Ab%2Fc%25d:H__");
  EXPECT_EQ(lines[1]["id"], "inbox:z%C3%BCrich:n%C2%B01:Handler");
}

TEST(MigrateInboxIds, IdsAlreadyCurrentArePassedOverAndCounted) {
  const ToolRun run = migrate("firestore", exported("inbox:acme:corp_42:H", "corp_42", "H") +
                                               exported("acme_7_H", "7", "H"));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  ASSERT_EQ(output_lines(run).size(), 1u);
  EXPECT_THAT(run.err, HasSubstr("1 re-keyed, 1 already on the current id (passed over), 0 "
                                 "refused"));
}

TEST(MigrateInboxIds, ABadLineIsReportedByNumberAndTheOthersAreStillReKeyed) {
  const ToolRun run = migrate("firestore", exported("a_1_H", "1", "H") + "not json\n" +
                                               exported("x_y_z", "q", "z") + "[1]\n" +
                                               R"({"id":"a_2_H","messageId":2,"handlerType":"H"})"
                                               "\n" +
                                               exported("b_3_H", "3", "H"));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  const auto lines = output_lines(run);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["id"], "inbox:a:1:H");
  EXPECT_EQ(lines[1]["id"], "inbox:b:3:H");
  EXPECT_THAT(run.err, HasSubstr("line 2 is not JSON"));
  EXPECT_THAT(run.err, AllOf(HasSubstr("line 3 has the id \"x_y_z\", on neither shape"),
                             HasSubstr("messageId \"q\"")));
  EXPECT_THAT(run.err, HasSubstr("line 4 is a JSON array"));
  EXPECT_THAT(run.err, HasSubstr("line 5 its \"messageId\" field is number, not a string"));
  EXPECT_THAT(run.err, HasSubstr("4 line(s) refused"));
}

TEST(MigrateInboxIds, AMissingFieldIsNamed) {
  const ToolRun run = migrate("firestore", R"({"id":"a_1_H","messageId":"1"})"
                                           "\n");
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("line 1 has no \"handlerType\" field"));
}

TEST(MigrateInboxIds, AnIntegerBeyond64BitsIsRefusedRatherThanRounded) {
  const ToolRun run = migrate(
      "firestore", R"({"id":"a_1_H","messageId":"1","handlerType":"H","n":123456789012345678901})"
                   "\n");
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("123456789012345678901, beyond 64 bits"));
}

TEST(MigrateInboxIds, AnExistingOldIdFieldIsNeverOverwritten) {
  const ToolRun run =
      migrate("firestore", R"({"id":"a_1_H","messageId":"1","handlerType":"H","old_id":"earlier"})"
                           "\n");
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("has an \"old_id\" field already"));
}

TEST(MigrateInboxIds, ACurrentIdWhoseFieldsDisagreeIsRefused) {
  const ToolRun run = migrate("firestore", exported("inbox:acme:1:H", "2", "H"));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("on the current shape, but it names message \"1\""));
}

TEST(MigrateInboxIds, AnElasticsearchIdOver512BytesIsReportedNeverTruncated) {
  const std::string old_id = std::string(kGuidTenant) + "_" + std::string(kGuidMessageId) + "_" +
                             std::string(kDictionaryHandler);
  const ToolRun run =
      migrate("elasticsearch", exported(old_id, kGuidMessageId, kDictionaryHandler));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, AllOf(HasSubstr("512"), HasSubstr("665")));
  // Firestore's limit is 1,500 bytes: the same entry re-keys there.
  const ToolRun firestore =
      migrate("firestore", exported(old_id, kGuidMessageId, kDictionaryHandler));
  EXPECT_EQ(firestore.exit_code, 0) << describe(firestore);
}

TEST(MigrateInboxIds, OnlyProvidersThatHadTheLegacyShapeAreAccepted) {
  const ToolRun run = migrate("dynamodb", exported("a_1_H", "1", "H"));
  EXPECT_EQ(run.exit_code, 2) << describe(run);
  EXPECT_THAT(run.err, AllOf(HasSubstr("firestore"), HasSubstr("elasticsearch")));
  EXPECT_THAT(run.out, Not(HasSubstr("inbox:")));
}

// The online form: a store whose provider never wrote the legacy id is refused (exit 1)
// before anything is read; the two forms exclude each other and --dry-run belongs to
// the online one (usage errors, exit 2).
TEST(MigrateInboxIds, TheOnlineFormTakesOnlyAStoreThatHadTheLegacyShape) {
  const std::string sqlite = "sqlite:///nonexistent-dir-for-docket/inbox.db";
  const ToolRun refused = run_docket({"migrate", "inbox-ids", "--store", sqlite});
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("never stored inbox entries under the legacy"));

  const ToolRun both =
      run_docket({"migrate", "inbox-ids", "--store", sqlite, "--provider", "firestore"});
  EXPECT_EQ(both.exit_code, 2) << describe(both);
  const ToolRun dry_offline =
      run_docket({"migrate", "inbox-ids", "--provider", "firestore", "--dry-run"}, "");
  EXPECT_EQ(dry_offline.exit_code, 2) << describe(dry_offline);
  const ToolRun neither = run_docket({"migrate", "inbox-ids"});
  EXPECT_EQ(neither.exit_code, 2) << describe(neither);
}

}  // namespace
}  // namespace docket::testing
