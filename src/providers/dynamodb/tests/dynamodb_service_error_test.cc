// Error answers parsed into kinds, and the exceptions and messages they become.
#include "providers/dynamodb/dynamodb_service_error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_failure.h"

namespace docket::dynamodb::detail {
namespace dynamodb_service_error_test {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(DynamoDbServiceError, ParsesTypeMessageAndKind) {
  const ServiceError error = parse_service_error(
      400,
      R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",)"
      R"("message":"The conditional request failed","Item":{"pk":{"S":"a"}}})",
      "REQ1");
  EXPECT_EQ(error.http_status, 400);
  EXPECT_EQ(error.type, "ConditionalCheckFailedException");
  EXPECT_EQ(error.kind, ErrorKind::kConditionalCheckFailed);
  EXPECT_EQ(error.message, "The conditional request failed");
  EXPECT_EQ(error.request_id, "REQ1");
  EXPECT_EQ(error.item["pk"]["S"], "a");
}

TEST(DynamoDbServiceError, ParsesEachCancellationReasonInItemOrder) {
  const ServiceError error = parse_service_error(
      400,
      R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException",)"
      R"("Message":"Transaction cancelled [None, ConditionalCheckFailed]",)"
      R"("CancellationReasons":[{"Code":"None"},{"Code":"ConditionalCheckFailed",)"
      R"("Message":"The conditional request failed","Item":{"pk":{"S":"b"}}}]})",
      "");
  EXPECT_EQ(error.kind, ErrorKind::kTransactionCanceled);
  EXPECT_EQ(error.message, "Transaction cancelled [None, ConditionalCheckFailed]");
  ASSERT_EQ(error.cancellation_reasons.size(), 2u);
  EXPECT_EQ(error.cancellation_reasons[0].code, "None");
  EXPECT_EQ(error.cancellation_reasons[1].code, "ConditionalCheckFailed");
  EXPECT_EQ(error.cancellation_reasons[1].message, "The conditional request failed");
  EXPECT_EQ(error.cancellation_reasons[1].item["pk"]["S"], "b");
  EXPECT_EQ(error.first_cancelled_item(), 1);
  EXPECT_EQ(error_kind(error.cancellation_reasons[1].code, 400),
            ErrorKind::kConditionalCheckFailed);
}

TEST(DynamoDbServiceError, KnowsThrottlingCredentialsValidationAndServerErrors) {
  for (const char* type :
       {"ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"}) {
    EXPECT_EQ(error_kind(type, 400), ErrorKind::kThrottled) << type;
  }
  for (const char* type : {"UnrecognizedClientException", "InvalidSignatureException",
                           "ExpiredTokenException", "AccessDeniedException"}) {
    EXPECT_EQ(error_kind(type, 400), ErrorKind::kCredentials) << type;
  }
  EXPECT_EQ(error_kind("ValidationException", 400), ErrorKind::kValidation);
  EXPECT_EQ(error_kind("SerializationException", 400), ErrorKind::kValidation);
  EXPECT_EQ(error_kind("ResourceNotFoundException", 400), ErrorKind::kResourceNotFound);
  EXPECT_EQ(error_kind("InternalServerError", 500), ErrorKind::kServerError);
  EXPECT_EQ(error_kind("SomethingNew", 503), ErrorKind::kServerError);
  EXPECT_EQ(error_kind("SomethingNew", 400), ErrorKind::kOther);
}

TEST(DynamoDbServiceError, ABodyThatIsNotDynamoDbJsonIsStillAnError) {
  const ServiceError error = parse_service_error(502, "<html>Bad Gateway</html>", "");
  EXPECT_EQ(error.type, "HTTP 502");
  EXPECT_EQ(error.kind, ErrorKind::kServerError);
  EXPECT_EQ(error.message, "<html>Bad Gateway</html>");
}

TEST(DynamoDbServiceError, ErrorKindsIsASet) {
  constexpr ErrorKinds kinds{ErrorKind::kThrottled, ErrorKind::kValidation};
  EXPECT_TRUE(kinds.contains(ErrorKind::kThrottled));
  EXPECT_TRUE(kinds.contains(ErrorKind::kValidation));
  EXPECT_FALSE(kinds.contains(ErrorKind::kOther));
  EXPECT_FALSE(ErrorKinds{}.contains(ErrorKind::kConditionalCheckFailed));
}

// The exception each kind becomes names the operation, the table, the URL and what to do.
class DynamoDbFailureTest : public ::testing::Test {
 protected:
  const StoreUrl url_ = parse_store_url("dynamodb://127.0.0.1:8000?region=us-east-1");
  const Call put_{.operation = "PutItem", .table = "app_inbox"};

  void throw_for(const std::string& type, long status, int attempts = 1) const {
    throw_service_failure(
        {put_, url_, "environment (AWS_ACCESS_KEY_ID)", attempts},
        parse_service_error(
            status, R"({"__type":"x#)" + type + R"(","message":"what DynamoDB said"})", "REQ-9"));
  }
};

TEST_F(DynamoDbFailureTest, ValidationIsInvalidInputSayingNothingWasWritten) {
  EXPECT_THAT(
      [&] { throw_for("ValidationException", 400); },
      ThrowsMessage<InvalidInputError>(
          AllOf(HasSubstr("DynamoDB PutItem on table 'app_inbox' at "
                          "dynamodb://127.0.0.1:8000?region=us-east-1 failed: "
                          "ValidationException (HTTP 400): what DynamoDB said [request id REQ-9]"),
                HasSubstr("wrote nothing"))));
}

TEST_F(DynamoDbFailureTest, MissingTablesAndRefusedCredentialsAreConfigurationErrors) {
  EXPECT_THAT([&] { throw_for("ResourceNotFoundException", 400); },
              ThrowsMessage<ConfigurationError>(AllOf(
                  HasSubstr("does not exist in region us-east-1"), HasSubstr("table_prefix"))));
  EXPECT_THAT([&] { throw_for("UnrecognizedClientException", 400); },
              ThrowsMessage<ConfigurationError>(AllOf(HasSubstr("environment (AWS_ACCESS_KEY_ID)"),
                                                      HasSubstr("dynamodb:PutItem"))));
}

TEST_F(DynamoDbFailureTest, ThrottlingAndServerErrorsAreInfrastructureErrorsCountingAttempts) {
  EXPECT_THAT([&] { throw_for("ThrottlingException", 400, 5); },
              ThrowsMessage<InfrastructureError>(
                  AllOf(HasSubstr("throttled the request on each of 5 attempts"),
                        HasSubstr("nothing was written"))));
  EXPECT_THAT([&] { throw_for("InternalServerError", 500); },
              ThrowsMessage<InfrastructureError>(HasSubstr("may or may not have been applied")));
}

}  // namespace dynamodb_service_error_test
}  // namespace docket::dynamodb::detail
