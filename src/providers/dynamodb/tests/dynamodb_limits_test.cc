// Limits refused before sending, naming the limit, the size and the attribute. The same
// boundaries against DynamoDB Local: dynamodb_limits_server_test.cc.
#include "providers/dynamodb/dynamodb_limits.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::dynamodb::detail {
namespace dynamodb_limits_test {

using nlohmann::json;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

const TableSchema kSchema{.name = "app_events",
                          .partition_key = {"pk", KeyType::kString},
                          .sort_key = KeyAttribute{"sk", KeyType::kString},
                          .global_indexes = {{.name = "by_feed",
                                              .partition_key = {"feed", KeyType::kString},
                                              .sort_key = KeyAttribute{"pos", KeyType::kNumber}}}};

json item_of(std::size_t pk_bytes, std::size_t sk_bytes) {
  return {{"pk", {{"S", std::string(pk_bytes, 'p')}}}, {"sk", {{"S", std::string(sk_bytes, 's')}}}};
}

TEST(DynamoDbLimits, KeysUpToTheirLimitsPass) {
  EXPECT_NO_THROW(check_item(kSchema, item_of(2048, 1024)));
  EXPECT_NO_THROW(check_key(kSchema, item_of(2048, 1024)));
  json with_index = item_of(1, 1);
  with_index["feed"] = {{"S", std::string(2048, 'f')}};
  with_index["pos"] = {{"N", "12"}};
  EXPECT_NO_THROW(check_item(kSchema, with_index));
}

TEST(DynamoDbLimits, APartitionKeyOver2048BytesIsKeyTooLong) {
  EXPECT_THAT(
      [] { check_item(kSchema, item_of(2049, 1)); },
      ThrowsMessage<KeyTooLongError>(AllOf(
          HasSubstr("table 'app_events'"), HasSubstr("partition key attribute 'pk'"),
          HasSubstr("2049 bytes"), HasSubstr("2048-byte limit"), HasSubstr("never truncates"))));
  try {
    check_key(kSchema, item_of(3000, 1));
    ADD_FAILURE() << "no refusal";
  } catch (const KeyTooLongError& e) {
    EXPECT_EQ(e.provider(), "dynamodb");
    EXPECT_EQ(e.limit_bytes(), 2048u);
    EXPECT_EQ(e.actual_bytes(), 3000u);
  }
}

TEST(DynamoDbLimits, ASortKeyOver1024BytesIsKeyTooLong) {
  EXPECT_THAT(
      [] { check_item(kSchema, item_of(1, 1025)); },
      ThrowsMessage<KeyTooLongError>(AllOf(HasSubstr("sort key attribute 'sk'"),
                                           HasSubstr("1025 bytes"), HasSubstr("1024-byte limit"))));
}

TEST(DynamoDbLimits, IndexKeysHaveTheSameLimitsAndMayBeAbsent) {
  json item = item_of(1, 1);
  item["feed"] = {{"S", std::string(2049, 'f')}};
  EXPECT_THAT([&] { check_item(kSchema, item); },
              ThrowsMessage<KeyTooLongError>(HasSubstr("partition key attribute 'feed'")));
  EXPECT_NO_THROW(check_item(kSchema, item_of(1, 1)));
}

TEST(DynamoDbLimits, MissingEmptyOrMistypedKeysAreRefused) {
  EXPECT_THAT(
      [] {
        check_item(kSchema, {{"pk", {{"S", "a"}}}});
      },
      ThrowsMessage<InvalidInputError>(HasSubstr("sort key attribute 'sk' is missing")));
  EXPECT_THAT([] { check_item(kSchema, item_of(0, 1)); },
              ThrowsMessage<InvalidInputError>(HasSubstr("'pk' is empty")));
  EXPECT_THAT(
      [] {
        check_item(kSchema, {{"pk", {{"N", "1"}}}, {"sk", {{"S", "a"}}}});
      },
      ThrowsMessage<InvalidInputError>(HasSubstr("must be of type S")));
  json extra = item_of(1, 1);
  extra["data"] = {{"S", "x"}};
  EXPECT_THAT([&] { check_key(kSchema, extra); },
              ThrowsMessage<InvalidInputError>(HasSubstr("exactly its 2 key attributes")));
}

TEST(DynamoDbLimits, AnItemOver400KbIsRefusedNamingItsLargestAttribute) {
  json item = item_of(1, 1);  // "pk" + "p" + "sk" + "s" = 6 bytes
  item["payload"] = {{"S", std::string(kMaxItemBytes - 6 - 7, 'x')}};
  EXPECT_NO_THROW(check_item(kSchema, item));  // exactly 409,600 bytes
  item["payload"] = {{"S", std::string(kMaxItemBytes - 6 - 7 + 1, 'x')}};
  EXPECT_THAT([&] { check_item(kSchema, item); },
              ThrowsMessage<InvalidInputError>(
                  AllOf(HasSubstr("the item is 409601 bytes"), HasSubstr("409600-byte (400 KB)"),
                        HasSubstr("largest attribute is 'payload' (409595 bytes)"))));
}

}  // namespace dynamodb_limits_test
}  // namespace docket::dynamodb::detail
