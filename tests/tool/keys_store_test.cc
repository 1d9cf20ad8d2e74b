// docket keys stream | saga | snapshot: the shapes of tenant-in-store-keys, --version
// handling, the saga type key, providers without a shape.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> stream_args(const std::string& command, const std::string& provider,
                                     const std::string& tenant = "acme") {
  return {"keys",  command,          "--provider", provider, "--tenant", tenant, "--aggregate-type",
          "Order", "--aggregate-id", "A-1001"};
}

std::vector<std::string> saga_args(const std::string& provider, const std::string& saga_id) {
  return {"keys", "saga",      "--provider", provider,      "--tenant",
          "acme", "--saga-id", saga_id,      "--saga-type", "OrderSaga"};
}

std::vector<std::string> plus(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

void expect_key(const std::vector<std::string>& args, const std::string& key) {
  const ToolRun run = run_docket(args);
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, key + "\n");
  EXPECT_EQ(run.err, "");
}

void expect_status(const std::vector<std::string>& args, const std::string& mentions,
                   int exit_code) {
  const ToolRun run = run_docket(args);
  EXPECT_EQ(run.exit_code, exit_code) << describe(run);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, StartsWith("docket: "));
  EXPECT_THAT(run.err, HasSubstr(mentions));
}

// A key the provider refuses: exit status 1.
void expect_refused(const std::vector<std::string>& args, const std::string& mentions) {
  expect_status(args, mentions, 1);
}

// A command line the command cannot run (--version missing, negative, or given where
// the provider keeps no version in the key): a usage error, exit status 2.
void expect_usage_error(const std::vector<std::string>& args, const std::string& mentions) {
  expect_status(args, mentions, 2);
}

TEST(KeysStream, DocumentedShapesCarryTheTenant) {
  expect_key(stream_args("stream", "cosmos"), "t:acme:Order:A-1001");
  expect_key(stream_args("stream", "dynamodb"), "t:acme:Order:A-1001");
  expect_key(stream_args("stream", "mongodb"), "t:acme:A-1001");
  expect_key(plus(stream_args("stream", "firestore"), {"--version", "3"}), "t:acme:Order:A-1001:3");
}

TEST(KeysStream, AwkwardTenantIsEscaped) {
  expect_key(stream_args("stream", "cosmos", "acme:eu"), "t:acme%3Aeu:Order:A-1001");
}

TEST(KeysStream, FirestoreNeedsVersion) {
  expect_usage_error(stream_args("stream", "firestore"), "--version");
}

TEST(KeysStream, NegativeVersionIsRefused) {
  expect_usage_error(plus(stream_args("stream", "firestore"), {"--version", "-1"}), "version");
}

TEST(KeysStream, VersionIsRefusedWhereItIsNotPartOfTheKey) {
  expect_usage_error(plus(stream_args("stream", "dynamodb"), {"--version", "3"}), "sort key");
  expect_usage_error(plus(stream_args("stream", "cosmos"), {"--version", "3"}), "field");
  expect_usage_error(plus(stream_args("stream", "mongodb"), {"--version", "3"}), "field");
}

TEST(KeysStream, ProvidersWithoutAStreamShapeAreRefused) {
  expect_refused(stream_args("stream", "elasticsearch"), "lasticsearch");
  expect_refused(stream_args("stream", "redis"), "edis");
}

TEST(KeysStream, JsonOfFirestoreEventDocumentCarriesTheVersion) {
  const ToolRun run =
      run_docket(plus(stream_args("stream", "firestore"), {"--version", "12", "--json"}));
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  const auto json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json.at("key"), "t:acme:Order:A-1001:12");
  EXPECT_EQ(json.at("bytes"), 22);
  EXPECT_EQ(json.at("limit"), 1500);
  EXPECT_EQ(json.at("provider"), "firestore");
  EXPECT_EQ(json.at("version"), 12);
}

TEST(KeysSnapshot, DocumentedShapes) {
  expect_key(stream_args("snapshot", "cosmos"), "t:acme:Order:A-1001");
  expect_key(stream_args("snapshot", "dynamodb"), "SNAPSHOT#t:acme:Order:A-1001");
  expect_key(stream_args("snapshot", "mongodb"), "t:acme:Order:A-1001");
  expect_key(stream_args("snapshot", "firestore"), "t:acme:Order:A-1001");
  expect_refused(stream_args("snapshot", "redis"), "edis");
}

TEST(KeysSaga, DocumentedShapes) {
  expect_key(saga_args("cosmos", "order-42"), "t:acme:order-42");
  expect_key(saga_args("dynamodb", "order-42"), "SAGA#t:acme:order-42");
  expect_key(saga_args("mongodb", "order-42"), "t:acme:order-42");
  expect_key(saga_args("firestore", "order-42"), "t:acme:order-42_OrderSaga");
  expect_refused(saga_args("elasticsearch", "order-42"), "lasticsearch");
}

TEST(KeysSaga, FirestoreEscapesUnderscoreInTheSagaIdSoTheJoinStaysUnambiguous) {
  expect_key(saga_args("firestore", "order_42"), "t:acme:order%5F42_OrderSaga");
}

TEST(KeysSaga, JsonShowsTheSagaTypeKeyWhereItLivesBesideTheKey) {
  for (const std::string provider : {"cosmos", "dynamodb"}) {
    const ToolRun run = run_docket(plus(saga_args(provider, "order-42"), {"--json"}));
    ASSERT_EQ(run.exit_code, 0) << describe(run);
    const auto json = nlohmann::json::parse(run.out);
    EXPECT_EQ(json.at("provider"), provider);
    EXPECT_EQ(json.at("saga_type_key"), "OrderSaga") << provider;
    EXPECT_EQ(json.at("saga_type_bytes"), 9) << provider;
    EXPECT_GT(json.at("saga_type_limit").get<int>(), 0) << provider;
    EXPECT_TRUE(json.at("saga_type_field").is_string()) << provider;
  }
  for (const std::string provider : {"mongodb", "firestore"}) {
    const ToolRun run = run_docket(plus(saga_args(provider, "order-42"), {"--json"}));
    ASSERT_EQ(run.exit_code, 0) << describe(run);
    const auto json = nlohmann::json::parse(run.out);
    EXPECT_FALSE(json.contains("saga_type_key")) << provider;
  }
}

TEST(KeysSaga, InvalidUtf8SagaTypeIsRefusedNamingIt) {
  expect_refused({"keys", "saga", "--provider", "dynamodb", "--tenant", "acme", "--saga-id", "1",
                  "--saga-type", "Order\xF4\x90\x80\x80", "--json"},
                 "saga type");
}

}  // namespace
}  // namespace docket::testing
