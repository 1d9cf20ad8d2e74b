// A sequence counter on DynamoDB (dynamodb_sequence_counter.h).
#include "providers/dynamodb/dynamodb_sequence_counter.h"

#include <string>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_expression.h"

namespace docket::dynamodb::detail {

std::int64_t draw_sequences(const Client& client, const SequenceCounter& counter,
                            std::int64_t count, std::string_view store) {
  constexpr std::string_view kAdd = "ADD #counter :count";
  const Response response =
      client.call({.operation = "UpdateItem", .table = counter.table, .replay = Replay::kSafe},
                  {{"TableName", counter.table},
                   {"Key", counter.key},
                   {"UpdateExpression", kAdd},
                   {"ExpressionAttributeNames", {{"#counter", counter.attribute}}},
                   {"ExpressionAttributeValues", {{":count", number_value(count)}}},
                   {"ReturnValues", "UPDATED_NEW"}});
  const nlohmann::json attributes = response.body().value("Attributes", nlohmann::json::object());
  return ItemReader(attributes, store).number(counter.attribute);
}

nlohmann::json hold_request(const SequenceHold& hold, std::span<const std::int64_t> sequences) {
  nlohmann::json added = nlohmann::json::array();
  for (const std::int64_t sequence : sequences) {
    added.push_back(std::to_string(sequence));
  }
  const auto room =
      static_cast<std::int64_t>(hold.max_held) - static_cast<std::int64_t>(sequences.size());
  return {{"Update",
           {{"TableName", hold.table},
            {"Key", hold.key},
            {"UpdateExpression", "SET #last = :last ADD #held :added"},
            {"ConditionExpression",
             "(attribute_not_exists(#held) OR size(#held) <= :room) AND "
             "(attribute_not_exists(#last) OR #last < :first)"},
            {"ExpressionAttributeNames",
             {{"#held", hold.set_attribute}, {"#last", hold.last_attribute}}},
            {"ExpressionAttributeValues",
             {{":added", {{"NS", std::move(added)}}},
              {":room", number_value(room)},
              {":first", number_value(sequences.front())},
              {":last", number_value(sequences.back())}}},
            {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}}}};
}

std::size_t held_count(const nlohmann::json& item, std::string_view set_attribute) {
  if (!item.is_object()) {
    return 0;
  }
  const auto set = item.find(set_attribute);
  if (set == item.end() || !set->is_object()) {
    return 0;
  }
  const auto numbers = set->find("NS");
  return numbers != set->end() && numbers->is_array() ? numbers->size() : 0;
}

bool refused_for_room(const SequenceHold& hold, const nlohmann::json& old_item,
                      std::size_t adding) {
  return held_count(old_item, hold.set_attribute) + adding > hold.max_held;
}

}  // namespace docket::dynamodb::detail
