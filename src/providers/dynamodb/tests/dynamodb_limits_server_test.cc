// docket's limit checks against DynamoDB Local's own: at each boundary the largest
// value docket accepts is stored, and one byte more is refused by docket and, sent
// anyway, by DynamoDB too. So the sizes docket computes are the server's.
#include "docket/core/error.h"
#include "dynamodb_fixture.h"
#include "providers/dynamodb/dynamodb_item_size.h"
#include "providers/dynamodb/dynamodb_limits.h"

namespace docket::dynamodb::detail {
namespace dynamodb_limits_test {

using nlohmann::json;

class DynamoDbLimitsTest : public DynamoDbTest {
 protected:
  // Puts `item` without docket's checks: what DynamoDB itself says.
  bool server_accepts(const TableSchema& table, const json& item) {
    try {
      return client_
          .call({.operation = "PutItem", .table = table.name, .replay = Replay::kSafe},
                {{"TableName", table.name}, {"Item", item}})
          .ok();
    } catch (const InvalidInputError&) {
      return false;
    }
  }

  // An item of exactly `bytes` bytes: `base` padded with a string attribute.
  static json padded(json base, std::size_t bytes) {
    const std::size_t used = item_size(base) + std::string("pad").size();
    base["pad"] = {{"S", std::string(bytes - used, 'x')}};
    EXPECT_EQ(item_size(base), bytes);
    return base;
  }
};

TEST_F(DynamoDbLimitsTest, TheItemLimitIsDynamoDbsTo400KbExactly) {
  const TableSchema table = schema("items", /*sorted=*/true);
  ensure(table);
  const json base{{"pk", {{"S", "a"}}}, {"sk", {{"S", "b"}}}};
  EXPECT_NO_THROW(check_item(table, padded(base, kMaxItemBytes)));
  EXPECT_TRUE(server_accepts(table, padded(base, kMaxItemBytes)));
  EXPECT_THROW(check_item(table, padded(base, kMaxItemBytes + 1)), InvalidInputError);
  EXPECT_FALSE(server_accepts(table, padded(base, kMaxItemBytes + 1)));
}

TEST_F(DynamoDbLimitsTest, NumbersListsMapsAndSetsAreSizedAsDynamoDbSizesThem) {
  const TableSchema table = schema("mixed", /*sorted=*/true);
  ensure(table);
  const json base{{"pk", {{"S", "a"}}},
                  {"sk", {{"S", "b"}}},
                  {"n", {{"N", "-1234567.8900"}}},
                  {"big", {{"N", "12345678901234567890123456789012345678"}}},
                  {"flag", {{"BOOL", true}}},
                  {"nothing", {{"NULL", true}}},
                  {"bin", {{"B", "AAECAwQF"}}},
                  {"tags", {{"SS", {"x", "yz"}}}},
                  {"nums", {{"NS", {"1", "22", "333"}}}},
                  {"list", {{"L", {{{"S", "ab"}}, {{"N", "5"}}, {{"M", json::object()}}}}}},
                  {"map", {{"M", {{"k", {{"S", "v"}}}, {"deep", {{"L", {{{"BOOL", false}}}}}}}}}}};
  EXPECT_TRUE(server_accepts(table, padded(base, kMaxItemBytes)));
  EXPECT_FALSE(server_accepts(table, padded(base, kMaxItemBytes + 1)));
}

TEST_F(DynamoDbLimitsTest, KeyLimitsAreDynamoDbsToTheByte) {
  const TableSchema table = schema("keys", /*sorted=*/true);
  ensure(table);
  const auto item = [](std::size_t pk_bytes, std::size_t sk_bytes) {
    return json{{"pk", {{"S", std::string(pk_bytes, 'p')}}},
                {"sk", {{"S", std::string(sk_bytes, 's')}}}};
  };
  EXPECT_NO_THROW(check_item(table, item(2048, 1024)));
  EXPECT_TRUE(server_accepts(table, item(2048, 1024)));
  EXPECT_THROW(check_item(table, item(2049, 1)), KeyTooLongError);
  EXPECT_FALSE(server_accepts(table, item(2049, 1)));
  EXPECT_THROW(check_item(table, item(1, 1025)), KeyTooLongError);
  EXPECT_FALSE(server_accepts(table, item(1, 1025)));
  EXPECT_THROW(check_item(table, item(0, 1)), InvalidInputError);
  EXPECT_FALSE(server_accepts(table, item(0, 1)));
}

}  // namespace dynamodb_limits_test
}  // namespace docket::dynamodb::detail
