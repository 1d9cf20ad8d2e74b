#include "providers/dynamodb/dynamodb_table_schema.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::dynamodb::detail {
namespace dynamodb_table_schema_test {

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

const TableSchema kEvents{.name = "app_events",
                          .partition_key = {"pk", KeyType::kString},
                          .sort_key = KeyAttribute{"sk", KeyType::kNumber},
                          .global_indexes = {{.name = "by_feed",
                                              .partition_key = {"feed", KeyType::kString},
                                              .sort_key = KeyAttribute{"sk", KeyType::kNumber}}}};

TEST(DynamoDbTableSchema, CreatesOnDemandWithEveryKeyAttributeDefinedOnce) {
  const json request = create_table_request(kEvents);
  EXPECT_EQ(request["TableName"], "app_events");
  EXPECT_EQ(request["BillingMode"], "PAY_PER_REQUEST");
  EXPECT_EQ(request["KeySchema"], json::parse(R"([{"AttributeName":"pk","KeyType":"HASH"},
                            {"AttributeName":"sk","KeyType":"RANGE"}])"));
  EXPECT_EQ(request["AttributeDefinitions"],
            json::parse(R"([{"AttributeName":"feed","AttributeType":"S"},
                            {"AttributeName":"pk","AttributeType":"S"},
                            {"AttributeName":"sk","AttributeType":"N"}])"));
  ASSERT_EQ(request["GlobalSecondaryIndexes"].size(), 1u);
  EXPECT_EQ(request["GlobalSecondaryIndexes"][0]["IndexName"], "by_feed");
  EXPECT_EQ(request["GlobalSecondaryIndexes"][0]["Projection"]["ProjectionType"], "ALL");
  EXPECT_FALSE(request.contains("ProvisionedThroughput"));
}

TEST(DynamoDbTableSchema, ATableWithoutIndexesSendsNone) {
  const json request = create_table_request({.name = "app_inbox", .partition_key = {"id"}});
  EXPECT_FALSE(request.contains("GlobalSecondaryIndexes"));
  EXPECT_EQ(request["KeySchema"].size(), 1u);
}

TEST(DynamoDbTableSchema, RefusesWhatDynamoDbCouldNotCreate) {
  EXPECT_THAT([] { check_schema({.name = "ab", .partition_key = {"pk"}}); },
              ThrowsMessage<ConfigurationError>(HasSubstr("table name 'ab' is not 3 to 255")));
  EXPECT_THROW(check_schema({.name = std::string(256, 't'), .partition_key = {"pk"}}),
               ConfigurationError);
  EXPECT_THROW(check_schema({.name = "a/b/c", .partition_key = {"pk"}}), ConfigurationError);
  EXPECT_THROW(check_schema({.name = "table", .partition_key = {""}}), ConfigurationError);
  EXPECT_THAT(
      [] {
        check_schema(
            {.name = "table",
             .partition_key = {"pk", KeyType::kString},
             .global_indexes = {{.name = "idx", .partition_key = {"pk", KeyType::kNumber}}}});
      },
      ThrowsMessage<ConfigurationError>(HasSubstr("'pk' is given two types (S and N)")));
  EXPECT_THROW(check_schema({.name = "table",
                             .partition_key = {"pk"},
                             .global_indexes = {{.name = "idx", .partition_key = {"a"}},
                                                {.name = "idx", .partition_key = {"b"}}}}),
               ConfigurationError);
  EXPECT_NO_THROW(check_schema(kEvents));
}

json described(const std::string& key_schema, const std::string& definitions,
               const std::string& indexes = "[]") {
  return {{"TableName", "app_events"},
          {"TableStatus", "ACTIVE"},
          {"KeySchema", json::parse(key_schema)},
          {"AttributeDefinitions", json::parse(definitions)},
          {"GlobalSecondaryIndexes", json::parse(indexes)}};
}

const std::string kKeys =
    R"([{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}])";
const std::string kDefinitions =
    R"([{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},
        {"AttributeName":"feed","AttributeType":"S"}])";
const std::string kIndex =
    R"([{"IndexName":"by_feed","KeySchema":[{"AttributeName":"feed","KeyType":"HASH"},
        {"AttributeName":"sk","KeyType":"RANGE"}],"IndexStatus":"ACTIVE"}])";

TEST(DynamoDbTableSchema, AMatchingTableHasNoMismatchAndMayHaveMoreIndexes) {
  EXPECT_EQ(schema_mismatch(kEvents, described(kKeys, kDefinitions, kIndex)), std::nullopt);
  json more = described(kKeys, kDefinitions, kIndex);
  more["GlobalSecondaryIndexes"].push_back({{"IndexName", "theirs"}, {"KeySchema", json::array()}});
  EXPECT_EQ(schema_mismatch(kEvents, more), std::nullopt);
}

TEST(DynamoDbTableSchema, NamesTheDifferenceOfAnotherShape) {
  EXPECT_EQ(schema_mismatch(kEvents, described(R"([{"AttributeName":"pk","KeyType":"HASH"}])",
                                               kDefinitions, kIndex)),
            "its primary key is pk (S) HASH, docket's is pk (S) HASH, sk (N) RANGE");
  const std::string string_sk =
      R"([{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}])";
  EXPECT_THAT(schema_mismatch(kEvents, described(kKeys, string_sk, kIndex)).value_or(""),
              HasSubstr("sk (S) RANGE, docket's is pk (S) HASH, sk (N) RANGE"));
  EXPECT_EQ(schema_mismatch(kEvents, described(kKeys, kDefinitions)),
            "it has no global secondary index 'by_feed' (feed (S) HASH, sk (N) RANGE)");
}

}  // namespace dynamodb_table_schema_test
}  // namespace docket::dynamodb::detail
