// The DynamoDB client against DynamoDB Local: writes and reads, conditions that do not
// hold, a cancelled transaction's reasons per item, a repeatable transaction, the
// errors DynamoDB answers, and a server that is not there.
#include "providers/dynamodb/dynamodb_client.h"

#include <chrono>

#include "docket/core/error.h"
#include "dynamodb_fixture.h"
#include "support/loopback_http_server.h"

namespace docket::dynamodb::detail {
namespace dynamodb_client_test {

using nlohmann::json;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

json key(const std::string& pk) {
  return {{"pk", {{"S", pk}}}};
}

json get(const Client& client, const std::string& table, const std::string& pk) {
  return client
      .call({.operation = "GetItem", .table = table, .replay = Replay::kSafe},
            {{"TableName", table}, {"Key", key(pk)}, {"ConsistentRead", true}})
      .body()
      .value("Item", json());
}

json put_new(const std::string& table, const std::string& pk, const std::string& data) {
  return {{"TableName", table},
          {"Item", {{"pk", {{"S", pk}}}, {"data", {{"S", data}}}}},
          {"ConditionExpression", "attribute_not_exists(pk)"}};
}

TEST_F(DynamoDbTest, PutThenGetReturnsTheItem) {
  const TableSchema inbox = schema("inbox");
  ensure(inbox);
  const Response put = client_.call({.operation = "PutItem", .table = inbox.name},
                                    put_new(inbox.name, "m1", "hello"));
  ASSERT_TRUE(put.ok());
  EXPECT_EQ(get(client_, inbox.name, "m1"),
            json({{"pk", {{"S", "m1"}}}, {"data", {{"S", "hello"}}}}));
  EXPECT_TRUE(get(client_, inbox.name, "absent").is_null());
}

TEST_F(DynamoDbTest, AConditionalPutThatFailsComesBackAsConditionalCheckFailed) {
  const TableSchema inbox = schema("inbox");
  ensure(inbox);
  ASSERT_TRUE(
      client_
          .call({.operation = "PutItem", .table = inbox.name}, put_new(inbox.name, "m1", "first"))
          .ok());
  json again = put_new(inbox.name, "m1", "second");
  again["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD";
  const Response response = client_.call({.operation = "PutItem", .table = inbox.name}, again);
  ASSERT_FALSE(response.ok());
  EXPECT_EQ(response.error().kind, ErrorKind::kConditionalCheckFailed);
  EXPECT_EQ(response.error().type, "ConditionalCheckFailedException");
  EXPECT_EQ(response.error().http_status, 400);
  EXPECT_EQ(response.error().item["data"]["S"], "first");
  EXPECT_EQ(get(client_, inbox.name, "m1")["data"]["S"], "first");
}

TEST_F(DynamoDbTest, ACancelledTransactionNamesTheItemWhoseConditionFailed) {
  const TableSchema inbox = schema("inbox");
  ensure(inbox);
  ASSERT_TRUE(
      client_.call({.operation = "PutItem", .table = inbox.name}, put_new(inbox.name, "taken", "x"))
          .ok());
  const json transaction{{"TransactItems",
                          {{{"Put", put_new(inbox.name, "fresh", "a")}},
                           {{"Put", put_new(inbox.name, "taken", "b")}}}}};
  const Response response =
      client_.call({.operation = "TransactWriteItems", .table = inbox.name}, transaction);
  ASSERT_FALSE(response.ok());
  const ServiceError& error = response.error();
  EXPECT_EQ(error.kind, ErrorKind::kTransactionCanceled);
  ASSERT_EQ(error.cancellation_reasons.size(), 2u);
  EXPECT_EQ(error.cancellation_reasons[0].code, "None");
  EXPECT_EQ(error.cancellation_reasons[1].code, "ConditionalCheckFailed");
  EXPECT_EQ(error.first_cancelled_item(), 1);
  EXPECT_TRUE(get(client_, inbox.name, "fresh").is_null()) << "nothing of the transaction applies";
  EXPECT_EQ(get(client_, inbox.name, "taken")["data"]["S"], "x");
}

// What Replay::kSafe promises of a TransactWriteItems with a ClientRequestToken:
// sending it twice applies it once.
TEST_F(DynamoDbTest, ATransactionWithAClientRequestTokenAppliesOnceWhenSentTwice) {
  const TableSchema counters = schema("counters");
  ensure(counters);
  // Tokens live ten minutes on the server, which outlives this test: one of its own.
  const json transaction{{"ClientRequestToken", "token-" + counters.name},
                         {"TransactItems",
                          {{{"Update",
                             {{"TableName", counters.name},
                              {"Key", key("c")},
                              {"UpdateExpression", "ADD n :one"},
                              {"ExpressionAttributeValues", {{":one", {{"N", "1"}}}}}}}}}}};
  const Call call{
      .operation = "TransactWriteItems", .table = counters.name, .replay = Replay::kSafe};
  ASSERT_TRUE(client_.call(call, transaction).ok());
  ASSERT_TRUE(client_.call(call, transaction).ok());
  EXPECT_EQ(get(client_, counters.name, "c")["n"]["N"], "1");

  json other = transaction;
  other["TransactItems"][0]["Update"]["ExpressionAttributeValues"][":one"]["N"] = "2";
  EXPECT_THAT([&] { client_.call(call, other); },
              ThrowsMessage<InvalidInputError>(
                  AllOf(HasSubstr("IdempotentParameterMismatchException"),
                        HasSubstr("give each distinct request a token of its own"))));
  EXPECT_EQ(get(client_, counters.name, "c")["n"]["N"], "1");
}

TEST_F(DynamoDbTest, AValidationExceptionIsAClearInvalidInputError) {
  const TableSchema inbox = schema("inbox");
  ensure(inbox);
  const json wrong_key_type{{"TableName", inbox.name}, {"Item", {{"pk", {{"N", "1"}}}}}};
  EXPECT_THAT([&] { client_.call({.operation = "PutItem", .table = inbox.name}, wrong_key_type); },
              ThrowsMessage<InvalidInputError>(
                  AllOf(HasSubstr("DynamoDB PutItem on table '" + inbox.name + "' at " + url_.text +
                                  " failed: ValidationException (HTTP 400): "),
                        HasSubstr("wrote nothing"), HasSubstr("key schema"))));
}

TEST_F(DynamoDbTest, AMissingTableIsAConfigurationErrorNamingPrefixAndRegion) {
  const std::string table = url_.table_name("never_made");
  EXPECT_THAT(
      [&] {
        client_.call({.operation = "GetItem", .table = table, .replay = Replay::kSafe},
                     {{"TableName", table}, {"Key", key("x")}});
      },
      ThrowsMessage<ConfigurationError>(
          AllOf(HasSubstr("DynamoDB GetItem on table '" + table + "'"),
                HasSubstr("ResourceNotFoundException"), HasSubstr("region us-east-1"),
                HasSubstr("table_prefix"))));
}

TEST(DynamoDbServerDown, AClosedPortFailsQuicklyWithAClearError) {
  const int port = test_support::closed_loopback_port();
  const Client client(
      parse_store_url("dynamodb://127.0.0.1:" + std::to_string(port) + "?region=us-east-1"));
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THAT(
      [&] {
        client.call({.operation = "GetItem", .table = "app_inbox", .replay = Replay::kSafe},
                    {{"TableName", "app_inbox"}, {"Key", key("x")}});
      },
      ThrowsMessage<InfrastructureError>(
          AllOf(HasSubstr("DynamoDB GetItem on table 'app_inbox' at dynamodb://127.0.0.1:" +
                          std::to_string(port) +
                          "?region=us-east-1 failed after 5 attempts: could not "
                          "connect to http://127.0.0.1:" +
                          std::to_string(port) + "/"),
                HasSubstr("Is the server running there?"))));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

}  // namespace dynamodb_client_test
}  // namespace docket::dynamodb::detail
