// A sequence counter on DynamoDB (dynamodb_sequence_counter.h).
#include "providers/dynamodb/dynamodb_sequence_counter.h"

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

}  // namespace docket::dynamodb::detail
