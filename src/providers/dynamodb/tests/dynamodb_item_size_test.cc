// Item sizes as DynamoDB documents them; the boundary at 400 KB is checked against
// DynamoDB Local itself in dynamodb_limits_server_test.cc.
#include "providers/dynamodb/dynamodb_item_size.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"

namespace docket::dynamodb::detail {
namespace dynamodb_item_size_test {

using nlohmann::json;
using ::testing::HasSubstr;

TEST(DynamoDbItemSize, StringsAndBinariesCountTheirBytes) {
  EXPECT_EQ(attribute_value_size({{"S", "hello"}}, "a"), 5u);
  EXPECT_EQ(attribute_value_size({{"S", "\xE1\x88\xB4"}}, "a"), 3u);  // UTF-8 bytes
  EXPECT_EQ(attribute_value_size({{"S", ""}}, "a"), 0u);
  EXPECT_EQ(attribute_value_size({{"B", "AAECAw=="}}, "a"), 4u);  // raw bytes, not base64
  EXPECT_EQ(attribute_value_size({{"B", "AAECAwQ="}}, "a"), 5u);
  EXPECT_EQ(attribute_value_size({{"B", "AAECAwQF"}}, "a"), 6u);
  EXPECT_EQ(attribute_value_size({{"B", ""}}, "a"), 0u);
}

// The sizes DynamoDB Local charges (measured at the 400 KB boundary): one byte per
// base-100 digit aligned on the decimal point, one more, and one more when negative.
TEST(DynamoDbItemSize, NumbersCountTheirBase100DigitsAsDynamoDbDoes) {
  const std::vector<std::pair<std::string, std::size_t>> sizes{
      {"0", 1},
      {"-0", 1},
      {"0.000", 1},
      {"5", 2},
      {"12", 2},
      {"100", 2},
      {"1E+3", 2},
      {"1200", 2},
      {"0.5", 2},
      {"0.05", 2},
      {"1E-130", 2},
      {"1.5", 3},
      {"120", 3},
      {"123", 3},
      {"1.1", 3},
      {"10.5", 3},
      {"12.34", 3},
      {"0.123", 3},
      {"1.25", 3},
      {"123.4", 4},
      {"-5", 3},
      {"-12", 3},
      {"-1.5", 4},
      {"-1E-130", 3},
      {"100.001", 5},
      {"-1234567.8900", 7},
      {"+42", 2},
      {"4.2e1", 2},
      {std::string(38, '9'), 20},
      {"-" + std::string(38, '9'), 21},
      {"9.9999999999999999999999999999999999999E+125", 20}};
  for (const auto& [number, size] : sizes) {
    EXPECT_EQ(attribute_value_size({{"N", number}}, "n"), size) << number;
  }
}

TEST(DynamoDbItemSize, BooleansNullsSetsListsAndMaps) {
  EXPECT_EQ(attribute_value_size({{"BOOL", true}}, "b"), 1u);
  EXPECT_EQ(attribute_value_size({{"NULL", true}}, "z"), 1u);
  EXPECT_EQ(attribute_value_size({{"SS", {"ab", "cde"}}}, "s"), 5u);
  EXPECT_EQ(attribute_value_size({{"NS", {"1", "123"}}}, "s"), 5u);
  EXPECT_EQ(attribute_value_size({{"BS", {"AAE=", "AA=="}}}, "s"), 3u);
  EXPECT_EQ(attribute_value_size({{"L", json::array()}}, "l"), 3u);
  EXPECT_EQ(attribute_value_size({{"M", json::object()}}, "m"), 3u);
  // 3 + (1 + 2) + (1 + 1) = 8
  EXPECT_EQ(attribute_value_size({{"L", {{{"S", "ab"}}, {{"BOOL", false}}}}}, "l"), 8u);
  // 3 + (1 + len("k") + 3) + (1 + len("nested") + (3 + (1 + 1 + 1)))
  EXPECT_EQ(attribute_value_size(
                {{"M", {{"k", {{"S", "abc"}}}, {"nested", {{"M", {{"x", {{"S", "y"}}}}}}}}}}, "m"),
            3u + (1 + 1 + 3) + (1 + 6 + (3 + (1 + 1 + 1))));
}

TEST(DynamoDbItemSize, AnItemIsItsNamesAndValues) {
  const json item{{"pk", {{"S", "inbox#1"}}}, {"n", {{"N", "12"}}}, {"ok", {{"BOOL", true}}}};
  EXPECT_EQ(item_size(item), (2u + 7) + (1 + 2) + (2 + 1));
  EXPECT_EQ(item_size(json::object()), 0u);
}

TEST(DynamoDbItemSize, RefusesWhatIsNotDynamoDbJsonNamingTheAttribute) {
  const auto refused = [](const json& item, const std::string& text) {
    SCOPED_TRACE(item.dump());
    EXPECT_THAT([&] { item_size(item); },
                ::testing::ThrowsMessage<InvalidInputError>(HasSubstr(text)));
  };
  refused({{"a", "plain"}}, "attribute 'a': a value must be a JSON object with exactly one");
  refused({{"a", {{"S", "x"}, {"N", "1"}}}}, "exactly one type key");
  refused({{"a", {{"S", 5}}}}, "a value of type S must be a JSON string");
  refused({{"a", {{"N", "12x"}}}}, "'12x' is not a number");
  refused({{"a", {{"N", ""}}}}, "'' is not a number");
  refused({{"a", {{"N", "1e"}}}}, "'1e' is not a number");
  refused({{"a", {{"N", "1e+-2"}}}}, "'1e+-2' is not a number");
  refused({{"a", {{"N", "."}}}}, "'.' is not a number");
  refused({{"a", {{"N", "--1"}}}}, "'--1' is not a number");
  refused({{"a", {{"B", "abc"}}}}, "groups of 4");
  refused({{"a", {{"B", "ab!d"}}}}, "must be base64");
  refused({{"a", {{"SS", json::array()}}}}, "non-empty JSON array");
  refused({{"a", {{"X", "y"}}}}, "'X' is not a DynamoDB type");
  refused({{"a", {{"L", {{{"S", "ok"}}, {{"Q", 1}}}}}}}, "attribute 'a[1]'");
  refused({{"a", {{"M", {{"inner", {{"N", "x"}}}}}}}}, "attribute 'a.inner'");
  EXPECT_THROW(item_size(json::array()), InvalidInputError);
}

}  // namespace dynamodb_item_size_test
}  // namespace docket::dynamodb::detail
