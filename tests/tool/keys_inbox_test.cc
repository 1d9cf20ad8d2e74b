// docket keys inbox: the reference vectors, --json, refusals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "reference_terms.h"
#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> inbox_args(std::string_view provider, std::string_view tenant,
                                    std::string_view message_id, std::string_view handler) {
  return {"keys",         "inbox",
          "--provider",   std::string(provider),
          "--tenant",     std::string(tenant),
          "--message-id", std::string(message_id),
          "--handler",    std::string(handler)};
}

std::vector<std::string> with_json(std::vector<std::string> args) {
  args.emplace_back("--json");
  return args;
}

std::string long_firestore_id() {
  const ToolRun run =
      run_docket(inbox_args("firestore", kGuidTenant, kGuidMessageId, kDictionaryHandler));
  return run.out;
}

TEST(KeysInbox, FirestoreReferenceVector) {
  const ToolRun run = run_docket(inbox_args("firestore", "acme", "corp_42", kOrderHandler));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "inbox:acme:corp_42:MyApp.Handlers.OrderHandler\n");
  EXPECT_EQ(run.err, "");
}

TEST(KeysInbox, ElasticsearchReferenceVector) {
  const ToolRun run = run_docket(inbox_args("elasticsearch", "acme_corp", "42", kOrderHandler));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "acme_corp:42:MyApp.Handlers.OrderHandler\n");
  EXPECT_EQ(run.err, "");
}

TEST(KeysInbox, EveryProviderComposesItsDocumentedShapeForPlainTerms) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"firestore", "inbox:acme:42:OrderHandler"}, {"elasticsearch", "acme:42:OrderHandler"},
      {"cosmos", "acme:42:OrderHandler"},          {"mongodb", "acme:42:OrderHandler"},
      {"redis", "inbox:acme:42:OrderHandler"},     {"dynamodb", "acme:42:OrderHandler"},
  };
  for (const auto& [provider, key] : expected) {
    const ToolRun run = run_docket(inbox_args(provider, "acme", "42", "OrderHandler"));
    EXPECT_EQ(run.exit_code, 0) << provider << ": " << describe(run);
    EXPECT_EQ(run.out, key + "\n") << provider;
  }
}

TEST(KeysInbox, ElasticsearchRefusesThe665ByteIdNamingLimitAndSize) {
  const ToolRun run =
      run_docket(inbox_args("elasticsearch", kGuidTenant, kGuidMessageId, kDictionaryHandler));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, StartsWith("docket: "));
  EXPECT_THAT(run.err, HasSubstr("512"));
  EXPECT_THAT(run.err, HasSubstr("665"));
}

TEST(KeysInbox, ElasticsearchRefusalAlsoHoldsWithJson) {
  const ToolRun run = run_docket(
      with_json(inbox_args("elasticsearch", kGuidTenant, kGuidMessageId, kDictionaryHandler)));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("665"));
}

TEST(KeysInbox, FirestoreAcceptsTheSameLongTerms) {
  const ToolRun run = run_docket(
      with_json(inbox_args("firestore", kGuidTenant, kGuidMessageId, kDictionaryHandler)));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto json = nlohmann::json::parse(run.out);
  // "inbox:" + the 665 bytes Elasticsearch refuses.
  EXPECT_EQ(json.at("bytes"), 671);
  EXPECT_EQ(json.at("limit"), 1500);
  const std::string key = json.at("key");
  EXPECT_EQ(key.size(), 671u);
  EXPECT_THAT(key,
              StartsWith("inbox:" + std::string(kGuidTenant) + ":" + std::string(kGuidMessageId) +
                         ":System.Collections.Generic."
                         "Dictionary%602%5B%5BSystem.String%2C%20"));
  EXPECT_EQ(long_firestore_id(), key + "\n");
}

TEST(KeysInbox, JsonCarriesKeyBytesLimitProviderAndField) {
  const ToolRun run =
      run_docket(with_json(inbox_args("elasticsearch", "acme_corp", "42", kOrderHandler)));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  ASSERT_THAT(run.out, ::testing::EndsWith("}\n"));
  EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << "one object on one line";
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("key"), "acme_corp:42:MyApp.Handlers.OrderHandler");
  EXPECT_EQ(json.at("bytes"), 40);
  EXPECT_EQ(json.at("limit"), 512);
  EXPECT_EQ(json.at("provider"), "elasticsearch");
  EXPECT_TRUE(json.at("field").is_string());
  EXPECT_FALSE(json.at("field").get<std::string>().empty());
}

TEST(KeysInbox, JsonBytesCountMultiByteTermsInBytes) {
  // "é" is two bytes of UTF-8; MongoDB keeps it unescaped.
  const ToolRun run = run_docket(with_json(inbox_args("mongodb", "caf\xC3\xA9", "1", "H")));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("key"), "caf\xC3\xA9:1:H");
  EXPECT_EQ(json.at("bytes"), 9);
}

TEST(KeysInbox, AwkwardTermsAreEscapedNotJoinedRaw) {
  const ToolRun run = run_docket(inbox_args("cosmos", "acme/eu", "order#7", "a:b"));
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "acme%2Feu:order%237:a%3Ab\n");
}

TEST(KeysInbox, InvalidUtf8TermIsRefusedNamingTheTerm) {
  // An encoded UTF-16 surrogate (U+D800) in the tenant.
  for (const bool json : {false, true}) {
    auto args = inbox_args("firestore", "acme\xED\xA0\x80", "42", kOrderHandler);
    if (json) {
      args.emplace_back("--json");
    }
    const ToolRun run = run_docket(args);
    EXPECT_EQ(run.exit_code, 1) << describe(run);
    EXPECT_EQ(run.out, "") << "nothing reaches stdout, JSON or not";
    EXPECT_THAT(run.err, StartsWith("docket: "));
    EXPECT_THAT(run.err, HasSubstr("tenant"));
  }
}

// Each kind of malformed UTF-8 in a term, refused naming the term and the defect.
TEST(KeysInbox, EveryUtf8DefectIsRefusedNamingItsKind) {
  const std::vector<std::pair<std::string, std::string>> defects = {
      {"m\xC0\xAF", "overlong encoding"},
      {"m\xED\xA0\x80", "encoded UTF-16 surrogate"},
      {"m\xF4\x90\x80\x80", "code point beyond U+10FFFF"},
      {"m\x80", "unexpected continuation byte"},
      {"m\xE2\x82", "truncated multi-byte sequence"},
      {"m\xFF", "invalid lead byte"},
  };
  for (const auto& [id, kind] : defects) {
    const ToolRun run = run_docket(inbox_args("dynamodb", "acme", id, kOrderHandler));
    EXPECT_EQ(run.exit_code, 1) << kind << ": " << describe(run);
    EXPECT_EQ(run.out, "") << kind;
    EXPECT_THAT(run.err, HasSubstr("message id is not valid UTF-8: " + kind));
  }
}

TEST(KeysInbox, TruncatedSequenceInHandlerIsRefusedNamingTheHandler) {
  const ToolRun run = run_docket(inbox_args("elasticsearch", "acme", "42", "Order\xC3"));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("handler"));
}

TEST(KeysInbox, EmptyTermIsRefused) {
  const ToolRun run = run_docket(inbox_args("redis", "acme", "", kOrderHandler));
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("message"));
}

}  // namespace
}  // namespace docket::testing
