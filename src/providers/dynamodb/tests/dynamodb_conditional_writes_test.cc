// apply_where_conditions_hold's groups on DynamoDB Local: a group applies whole or not
// at all, whatever its neighbours do; groups past one transaction's 100 actions are sent
// whole in later requests; and the outbox's apply_releasing releases a key's sequences
// exactly for the changes that applied, two changes of one key item included (a
// transaction names an item once).
#include "providers/dynamodb/dynamodb_conditional_writes.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_consistent_reads.h"
#include "providers/dynamodb/dynamodb_outbox_requests.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"
#include "providers/dynamodb/tests/dynamodb_fixture.h"

namespace docket::dynamodb::detail {
namespace {

class DynamoDbConditionalWritesTest : public DynamoDbTest {
 protected:
  DynamoDbConditionalWritesTest() {
    ensure({.name = table_, .partition_key = {"id", KeyType::kString}});
  }

  // A Put of the item `id`, where no item has that id yet.
  nlohmann::json put_new(const std::string& id) const {
    return {{"Put",
             {{"TableName", table_},
              {"Item", {{"id", string_value(id)}}},
              {"ConditionExpression", "attribute_not_exists(id)"}}}};
  }

  // An Update of the item `id` setting done, where it exists.
  nlohmann::json mark_existing(const std::string& id) const {
    return {{"Update",
             {{"TableName", table_},
              {"Key", {{"id", string_value(id)}}},
              {"UpdateExpression", "SET done = :yes"},
              {"ConditionExpression", "attribute_exists(id)"},
              {"ExpressionAttributeValues", {{":yes", number_value(1)}}}}}};
  }

  void put(const nlohmann::json& item) const {
    client_.call({.operation = "PutItem", .table = table_, .replay = Replay::kSafe},
                 {{"TableName", table_}, {"Item", item}});
  }

  bool exists(const std::string& id) const {
    return consistent_get(client_, table_, {{"id", string_value(id)}}).has_value();
  }

  std::vector<bool> apply(const std::vector<ActionGroup>& groups,
                          std::vector<std::size_t>* refused = nullptr) const {
    return apply_where_conditions_hold(client_, table_, "test", groups,
                                       [&](std::size_t index, const nlohmann::json&) {
                                         if (refused != nullptr) {
                                           refused->push_back(index);
                                         }
                                       });
  }

  std::string table_ = url_.table_name("writes");
};

TEST_F(DynamoDbConditionalWritesTest, AGroupWithOneFailedConditionAppliesNothingOfIt) {
  put({{"id", string_value("taken")}});
  std::vector<std::size_t> refused;
  const std::vector<bool> applied = apply(
      {{put_new("first"), put_new("taken")}, {put_new("alone")}, {put_new("second")}}, &refused);
  EXPECT_EQ(applied, (std::vector<bool>{false, true, true}));
  EXPECT_EQ(refused, (std::vector<std::size_t>{0}));  // the group, once
  EXPECT_FALSE(exists("first"));                      // went with its group
  EXPECT_TRUE(exists("alone"));
  EXPECT_TRUE(exists("second"));
}

TEST_F(DynamoDbConditionalWritesTest, GroupsPastOneTransactionAreSentWholeInTheNext) {
  // 67 groups of three: 201 actions, so at least three requests, none splitting a group.
  std::vector<ActionGroup> groups;
  for (int g = 0; g < 67; ++g) {
    const std::string id = "g" + std::to_string(g) + "-";
    groups.push_back({put_new(id + "0"), put_new(id + "1"), put_new(id + "2")});
  }
  put({{"id", string_value("g66-2")}});  // the last group's last action fails
  const std::vector<bool> applied = apply(groups);
  ASSERT_EQ(applied.size(), 67U);
  for (int g = 0; g < 66; ++g) {
    EXPECT_TRUE(applied[static_cast<std::size_t>(g)]) << g;
    EXPECT_TRUE(exists("g" + std::to_string(g) + "-2")) << g;
  }
  EXPECT_FALSE(applied[66]);
  EXPECT_FALSE(exists("g66-0"));
}

TEST_F(DynamoDbConditionalWritesTest, AGroupOfNoneOrOverAHundredActionsIsRefused) {
  EXPECT_THROW(apply({{}}), std::invalid_argument);
  EXPECT_THROW(apply({ActionGroup(101, put_new("x"))}), std::invalid_argument);
  EXPECT_FALSE(exists("x"));
}

TEST_F(DynamoDbConditionalWritesTest, ReleasingFreesTheSequencesOfTheChangesThatApplied) {
  const nlohmann::json key_item = {{"id", string_value("key")}};
  put({{"id", string_value("key")}, {"held", {{"NS", {"1", "2", "3", "4"}}}}});
  put({{"id", string_value("m1")}});
  put({{"id", string_value("m2")}});
  put({{"id", string_value("m4")}});
  // m1, m2 and m4 of one key item, and m3, which does not exist, of the same key.
  const std::vector<outbox::Releasing> changes = {
      {.action = mark_existing("m1"), .key_item = key_item, .sequence = 1},
      {.action = mark_existing("m2"), .key_item = key_item, .sequence = 2},
      {.action = mark_existing("m3"), .key_item = key_item, .sequence = 3},
      {.action = mark_existing("m4"), .key_item = key_item, .sequence = 4}};
  const std::vector<bool> applied = outbox::apply_releasing(client_, table_, "test", changes);
  EXPECT_EQ(applied, (std::vector<bool>{true, true, false, true}));
  const std::optional<nlohmann::json> key = consistent_get(client_, table_, key_item);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(outbox::held_of(*key, "test"), (std::vector<std::int64_t>{3}));
}

}  // namespace
}  // namespace docket::dynamodb::detail
