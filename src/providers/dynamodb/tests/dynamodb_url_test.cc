#include "providers/dynamodb/dynamodb_url.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::dynamodb::detail {
namespace dynamodb_url_test {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(DynamoDbUrl, AServerOfOnesOwnIsPlainHttpAtHostAndPort) {
  const StoreUrl url =
      parse_store_url("dynamodb://127.0.0.1:8000?region=us-east-1&table_prefix=app_");
  EXPECT_FALSE(url.aws);
  EXPECT_EQ(url.endpoint, "http://127.0.0.1:8000/");
  EXPECT_EQ(url.host, "127.0.0.1:8000");
  EXPECT_EQ(url.region, "us-east-1");
  EXPECT_EQ(url.table_prefix, "app_");
  EXPECT_EQ(url.table_name("inbox"), "app_inbox");
  EXPECT_EQ(url.text, "dynamodb://127.0.0.1:8000?region=us-east-1&table_prefix=app_");
}

TEST(DynamoDbUrl, TheAwsServiceIsHttpsAtTheRegionalEndpoint) {
  const StoreUrl url = parse_store_url("dynamodb://aws?region=eu-west-1");
  EXPECT_TRUE(url.aws);
  EXPECT_EQ(url.endpoint, "https://dynamodb.eu-west-1.amazonaws.com/");
  EXPECT_EQ(url.host, "dynamodb.eu-west-1.amazonaws.com");
  EXPECT_EQ(url.table_prefix, "");
  EXPECT_EQ(url.table_name("inbox"), "inbox");
  EXPECT_EQ(parse_store_url("dynamodb://aws?region=cn-north-1").host,
            "dynamodb.cn-north-1.amazonaws.com.cn");
}

TEST(DynamoDbUrl, AcceptsHostNamesIpv6ATrailingSlashAndParametersInAnyOrder) {
  EXPECT_EQ(parse_store_url("dynamodb://localhost:8000/?table_prefix=a.b-c&region=us-west-2").host,
            "localhost:8000");
  EXPECT_EQ(parse_store_url("dynamodb://[::1]:8000?region=us-east-1").endpoint,
            "http://[::1]:8000/");
}

void expect_refused(const std::string& url, const std::string& reason) {
  SCOPED_TRACE(url);
  EXPECT_THAT([&] { parse_store_url(url); },
              ::testing::ThrowsMessage<ConfigurationError>(AllOf(
                  HasSubstr("DynamoDB store URL '" + printable_url(url) + "'"), HasSubstr(reason),
                  HasSubstr("Accepted forms: dynamodb://HOST:PORT?region="))));
  const auto problem = store_url_problem(url);
  ASSERT_TRUE(problem.has_value());
  EXPECT_THAT(*problem, HasSubstr(reason));
}

TEST(DynamoDbUrl, RefusesMissingUnknownRepeatedAndEmptyParameters) {
  expect_refused("dynamodb://127.0.0.1:8000", "names no region");
  expect_refused("dynamodb://aws?table_prefix=x", "names no region");
  expect_refused("dynamodb://aws?region=us-east-1&endpoint=x", "unknown parameter 'endpoint'");
  expect_refused("dynamodb://aws?region=us-east-1&region=eu-west-1", "region twice");
  expect_refused("dynamodb://aws?region=", "region '' is not an AWS region name");
  expect_refused("dynamodb://aws?region=US_EAST", "region 'US_EAST' is not");
  expect_refused("dynamodb://aws?region=us-east-1&table_prefix=", "table_prefix ''");
  expect_refused("dynamodb://aws?region=us-east-1&table_prefix=a/b", "table_prefix 'a/b'");
  expect_refused("dynamodb://aws?region=us-east-1&table_prefix=" + std::string(201, 'p'),
                 "1 to 200");
  expect_refused("dynamodb://aws?region=us-east-1&", "parameter '' is not NAME=VALUE");
  expect_refused("dynamodb://aws?region", "parameter 'region' is not NAME=VALUE");
}

TEST(DynamoDbUrl, RefusesWhatIsNotAServerAndCredentialsInTheUrl) {
  expect_refused("dynamodb://127.0.0.1?region=us-east-1", "needs a port");
  expect_refused("dynamodb://127.0.0.1:0?region=us-east-1", "needs a port");
  expect_refused("dynamodb://127.0.0.1:65536?region=us-east-1", "needs a port");
  expect_refused("dynamodb://127.0.0.1:80a?region=us-east-1", "needs a port");
  expect_refused("dynamodb://?region=us-east-1", "is neither 'aws'");
  expect_refused("dynamodb://::1:8000?region=us-east-1", "is neither 'aws'");
  expect_refused("dynamodb://AKID@aws?region=us-east-1", "user info");
  // ... and the user info, which may be a key pasted there, is never printed.
  EXPECT_EQ(printable_url("dynamodb://AKID@aws?region=us-east-1"),
            "dynamodb://***@aws?region=us-east-1");
  expect_refused("dynamodb://aws/tables?region=us-east-1", "path '/tables'");
  expect_refused("dynamodb://aws?region=us-east-1#x", "fragment");
  expect_refused("postgresql://aws?region=us-east-1", "does not start with dynamodb://");
  EXPECT_FALSE(store_url_problem("dynamodb://aws?region=us-east-1").has_value());
}

TEST(DynamoDbUrl, TheUserInfoRefusalDoesNotEchoTheSecret) {
  const std::string url = "dynamodb://AKID:s3cret@aws?region=us-east-1";
  const auto problem = store_url_problem(url);
  ASSERT_TRUE(problem.has_value());
  EXPECT_THAT(*problem, ::testing::Not(HasSubstr("s3cret")));
  EXPECT_THAT([&] { parse_store_url(url); },
              ::testing::ThrowsMessage<ConfigurationError>(
                  AllOf(HasSubstr("user info"), ::testing::Not(HasSubstr("s3cret")))));
}

// A value is split from the next parameter on '&' only, but a reader of the URL may
// also split it on '?' or '#': a password planted there is masked where the value is
// quoted, and the rest of the value is still shown.
TEST(DynamoDbUrl, AQuotedParameterValueNeverEchoesAPassword) {
  for (const std::string url :
       {"dynamodb://127.0.0.1:8000?region=us-0=\x91?password=s3cret",
        "dynamodb://aws?region=us-east-1&table_prefix=app?password=s3cret&x=1",
        "dynamodb://aws?region=us?x=1?password=s3cret?y=2"}) {
    SCOPED_TRACE(url);
    const auto problem = store_url_problem(url);
    ASSERT_TRUE(problem.has_value());
    EXPECT_THAT(*problem, AllOf(HasSubstr("password=***"), ::testing::Not(HasSubstr("s3cret"))));
    EXPECT_THAT([&] { parse_store_url(url); },
                ::testing::ThrowsMessage<ConfigurationError>(::testing::Not(HasSubstr("s3cret"))));
  }
  EXPECT_EQ(store_url_problem("dynamodb://aws?region=us-0?password=s3cret"),
            "region 'us-0?password=***' is not an AWS region name (lower-case letters, digits "
            "and '-', such as us-east-1)");
}

}  // namespace dynamodb_url_test
}  // namespace docket::dynamodb::detail
