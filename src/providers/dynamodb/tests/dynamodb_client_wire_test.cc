// The DynamoDB client against a loopback HTTP server of the test's own: what goes on the
// wire, and which answers it repeats. (Against DynamoDB Local itself:
// dynamodb_client_test.cc.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_inbox_table.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "support/loopback_http_server.h"

namespace docket::dynamodb::detail {
namespace dynamodb_client_wire_test {

using namespace std::chrono_literals;
using test_support::LoopbackHttpServer;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

// No AWS variables and no HOME: whatever the machine has stays out of these tests.
kit::http::EnvironmentLookup empty_environment() {
  return [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
}

kit::http::JsonServiceOptions fast_options() {
  return {.http = {.connect_timeout = 300ms, .total_timeout = 300ms},
          .retry = {.max_attempts = 3, .base = 1ms, .cap = 2ms},
          .environment = empty_environment()};
}

StoreUrl url_of(int port) {
  return parse_store_url("dynamodb://127.0.0.1:" + std::to_string(port) + "?region=eu-central-1");
}

std::string error_body(const std::string& type) {
  return R"({"__type":"com.amazonaws.dynamodb.v20120810#)" + type + R"(","message":"said"})";
}

const Call kPut{.operation = "PutItem", .table = "app_inbox"};
const Call kSafeGet{.operation = "GetItem", .table = "app_inbox", .replay = Replay::kSafe};

TEST(DynamoDbClientWire, SendsASignedJsonPostToTheOperationsTarget) {
  LoopbackHttpServer server;
  const Client client(url_of(server.port()), fast_options());
  const Response response = client.call(kPut, {{"TableName", "app_inbox"}});
  ASSERT_TRUE(response.ok());
  ASSERT_EQ(server.requests().size(), 1u);
  const std::string request = server.requests().front();
  EXPECT_TRUE(request.starts_with("POST / HTTP/1.1\r\n")) << request;
  EXPECT_THAT(request, HasSubstr("\r\nHost: 127.0.0.1:" + std::to_string(server.port()) + "\r\n"));
  EXPECT_THAT(request, HasSubstr("\r\nContent-Type: application/x-amz-json-1.0\r\n"));
  EXPECT_THAT(request, HasSubstr("\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\n"));
  EXPECT_TRUE(std::regex_search(request, std::regex("\r\nX-Amz-Date: \\d{8}T\\d{6}Z\r\n")));
  EXPECT_TRUE(std::regex_search(
      request, std::regex("\r\nAuthorization: AWS4-HMAC-SHA256 Credential=docketlocal/\\d{8}/"
                          "eu-central-1/dynamodb/aws4_request, "
                          "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
                          "Signature=[0-9a-f]{64}\r\n")))
      << request;
  EXPECT_TRUE(request.ends_with("\r\n\r\n{\"TableName\":\"app_inbox\"}")) << request;
  EXPECT_EQ(client.credentials().access_key_id, "docketlocal");
}

TEST(DynamoDbClientWire, SignsWithTheCredentialsFoundAndTheirSessionToken) {
  LoopbackHttpServer server;
  kit::http::JsonServiceOptions options = fast_options();
  options.environment = [](std::string_view name) -> std::optional<std::string> {
    const std::map<std::string_view, std::string> env{{"AWS_ACCESS_KEY_ID", "AKIDTEST"},
                                                      {"AWS_SECRET_ACCESS_KEY", "secret"},
                                                      {"AWS_SESSION_TOKEN", "TOKEN123"}};
    const auto it = env.find(name);
    return it == env.end() ? std::nullopt : std::optional(it->second);
  };
  const Client client(url_of(server.port()), options);
  ASSERT_TRUE(client.call(kSafeGet, {{"TableName", "t"}}).ok());
  const std::string request = server.requests().front();
  EXPECT_THAT(request, HasSubstr("\r\nX-Amz-Security-Token: TOKEN123\r\n"));
  EXPECT_THAT(request, HasSubstr("Credential=AKIDTEST/"));
  EXPECT_THAT(request, HasSubstr("SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;"
                                 "x-amz-target,"));
}

TEST(DynamoDbClientWire, TheAwsServiceWithoutCredentialsIsRefusedWhenTheClientIsMade) {
  EXPECT_THAT(
      [] { Client(parse_store_url("dynamodb://aws?region=eu-west-1"), fast_options()); },
      ThrowsMessage<ConfigurationError>(
          AllOf(HasSubstr("DynamoDB store at dynamodb://aws?region=eu-west-1: no AWS credentials"),
                HasSubstr("AWS_ACCESS_KEY_ID"))));
}

TEST(DynamoDbClientWire, ThrottlingIsRepeatedEvenForUnsafeCallsAsNothingWasApplied) {
  auto server = LoopbackHttpServer::answering(400, error_body("ThrottlingException"));
  const Client client(url_of(server.port()), fast_options());
  EXPECT_THAT(
      [&] {
        client.call(kPut, {{"TableName", "app_inbox"}});
      },
      ThrowsMessage<InfrastructureError>(
          AllOf(HasSubstr("DynamoDB PutItem on table 'app_inbox'"),
                HasSubstr("ThrottlingException (HTTP 400): said [request id TEST-REQUEST-ID]"),
                HasSubstr("on each of 3 attempts"))));
  EXPECT_EQ(server.request_count(), 3u);
}

TEST(DynamoDbClientWire, ServerErrorsAreRepeatedOnlyForSafeCalls) {
  auto server = LoopbackHttpServer::answering(500, error_body("InternalServerError"));
  const Client client(url_of(server.port()), fast_options());
  EXPECT_THAT(
      [&] {
        client.call(kPut, {{"TableName", "app_inbox"}});
      },
      ThrowsMessage<InfrastructureError>(AllOf(HasSubstr("InternalServerError (HTTP 500)"),
                                               HasSubstr("may or may not have been applied"))));
  EXPECT_EQ(server.request_count(), 1u);
  EXPECT_THROW(client.call(kSafeGet, {{"TableName", "app_inbox"}}), InfrastructureError);
  EXPECT_EQ(server.request_count(), 1u + 3u);
}

TEST(DynamoDbClientWire, ClientErrorsAreNeverRepeated) {
  auto server = LoopbackHttpServer::answering(400, error_body("ValidationException"));
  const Client client(url_of(server.port()), fast_options());
  EXPECT_THROW(client.call(kSafeGet, {{"TableName", "app_inbox"}}), InvalidInputError);
  EXPECT_EQ(server.request_count(), 1u);
}

TEST(DynamoDbClientWire, AnExpectedErrorComesBackAsAResponse) {
  auto server = LoopbackHttpServer::answering(400, error_body("ConditionalCheckFailedException"));
  const Client client(url_of(server.port()), fast_options());
  const Response response = client.call(kPut, {{"TableName", "app_inbox"}});
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().kind, ErrorKind::kConditionalCheckFailed);
  EXPECT_EQ(response.error().request_id, "TEST-REQUEST-ID");
  EXPECT_EQ(server.request_count(), 1u);
  // Not expected by this call: thrown.
  EXPECT_THROW(
      client.call({.operation = "PutItem", .table = "t", .expected = {}}, nlohmann::json::object()),
      InfrastructureError);
}

TEST(DynamoDbClientWire, ASilentServerTimesOutAndOnlySafeCallsAreSentAgain) {
  LoopbackHttpServer server(LoopbackHttpServer::Mode::kSilent);
  const Client client(url_of(server.port()), fast_options());
  EXPECT_THAT(
      [&] {
        client.call(kPut, {{"TableName", "app_inbox"}});
      },
      ThrowsMessage<InfrastructureError>(
          AllOf(HasSubstr("no answer in time"), HasSubstr("may or may not have been applied"))));
  EXPECT_EQ(server.request_count(), 1u);
  EXPECT_THROW(client.call(kSafeGet, {{"TableName", "app_inbox"}}), InfrastructureError);
  EXPECT_EQ(server.request_count(), 1u + 3u);
}

// A connection never made cannot have applied the request: repeated even for a call that
// is not safe to replay, and the message says where it went and how to start a server.
TEST(DynamoDbClientWire, AConnectionNeverMadeIsRepeatedAndSaysHowToStartTheServer) {
  const int port = test_support::closed_loopback_port();
  const Client client(url_of(port), fast_options());
  EXPECT_THAT(
      [&] {
        client.call(kPut, {{"TableName", "app_inbox"}});
      },
      ThrowsMessage<InfrastructureError>(AllOf(
          HasSubstr("DynamoDB PutItem on table 'app_inbox' at dynamodb://127.0.0.1:" +
                    std::to_string(port) +
                    "?region=eu-central-1 failed after 3 attempts: could not connect to "
                    "http://127.0.0.1:" +
                    std::to_string(port) + "/ ("),
          HasSubstr("scripts/dynamodb-start.sh"), ::testing::Not(HasSubstr("may or may not")))));
}

TEST(DynamoDbClientWire, ANonJsonSuccessIsRefused) {
  auto server = LoopbackHttpServer::answering(200, "<html>a proxy</html>");
  const Client client(url_of(server.port()), fast_options());
  EXPECT_THAT(
      [&] {
        client.call(kSafeGet, {{"TableName", "app_inbox"}});
      },
      ThrowsMessage<InfrastructureError>(HasSubstr("not JSON")));
}

TEST(DynamoDbClientWire, AStringThatIsNotUtf8IsRefusedBeforeSending) {
  LoopbackHttpServer server;
  const Client client(url_of(server.port()), fast_options());
  EXPECT_THAT(
      [&] {
        client.call(kPut, {{"TableName", "app\xff"}});
      },
      ThrowsMessage<InvalidInputError>(HasSubstr("not valid UTF-8")));
  EXPECT_EQ(server.request_count(), 0u);
}

// The operation a request names in its X-Amz-Target header ("PutItem").
std::string operation_of(const std::string& request) {
  static const std::regex target("\r\nX-Amz-Target: DynamoDB_20120810\\.(\\w+)\r\n");
  std::smatch match;
  return std::regex_search(request, match, target) ? match[1].str() : std::string();
}

// Expired temporary credentials, answered as AWS answers them (DynamoDB Local checks no
// credentials): a ConfigurationError saying what to renew, sent once.
TEST(DynamoDbClientWire, ExpiredCredentialsAreAConfigurationErrorSentOnce) {
  auto server = LoopbackHttpServer::answering(
      400, R"({"__type":"com.amazon.coral.service#ExpiredTokenException",)"
           R"("message":"The security token included in the request is expired"})");
  const Client client(url_of(server.port()), fast_options());
  EXPECT_THAT(
      [&] {
        client.call(kPut, {{"TableName", "app_inbox"}});
      },
      ThrowsMessage<ConfigurationError>(
          AllOf(HasSubstr("ExpiredTokenException"), HasSubstr("security token included"),
                HasSubstr("were refused"), HasSubstr("AWS_SESSION_TOKEN"),
                HasSubstr("dynamodb:PutItem"))));
  EXPECT_EQ(server.request_count(), 1u);
}

// A table that is missing, with credentials that may not create it: DescribeTable finds
// nothing, CreateTable is refused as AWS refuses it, and the error says both and what to
// do; nothing but those two requests is sent.
TEST(DynamoDbClientWire, AMissingTableThatMayNotBeCreatedIsAConfigurationErrorWritingNothing) {
  std::vector<std::string> operations;
  std::mutex mutex;
  auto server = LoopbackHttpServer::responding([&](const std::string& request) {
    const std::string operation = operation_of(request);
    {
      const std::lock_guard lock(mutex);
      operations.push_back(operation);
    }
    if (operation == "DescribeTable") {
      return LoopbackHttpServer::Answer{400, error_body("ResourceNotFoundException")};
    }
    return LoopbackHttpServer::Answer{
        400, R"({"__type":"com.amazon.coral.service#AccessDeniedException","message":"User: )"
             R"(arn:aws:sts::123456789012:assumed-role/orders/worker is not authorized to )"
             R"(perform: dynamodb:CreateTable"})"};
  });
  const Client client(url_of(server.port()), fast_options());
  const TableSchema inbox = inbox::inbox_table_schema(client.url());
  EXPECT_THAT([&] { ensure_table(client, inbox); },
              ThrowsMessage<ConfigurationError>(AllOf(
                  HasSubstr("DynamoDB table '" + inbox.name + "'"), HasSubstr("does not exist"),
                  HasSubstr("creating it was refused (AccessDeniedException"),
                  HasSubstr("not authorized to perform: dynamodb:CreateTable"),
                  HasSubstr("nothing was written"), HasSubstr("docs/dynamodb-stores.md"))));
  const std::lock_guard lock(mutex);
  EXPECT_EQ(operations, (std::vector<std::string>{"DescribeTable", "CreateTable"}));
}

}  // namespace dynamodb_client_wire_test
}  // namespace docket::dynamodb::detail
