// The outbox's item and its conditional changes, without a server: a record survives
// the item unchanged, a new item is in the pending and feed indexes only, and each change
// moves the item between the status indexes under a condition on the item itself.
#include "providers/dynamodb/dynamodb_outbox_table.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "providers/dynamodb/dynamodb_outbox_requests.h"

namespace docket::dynamodb::detail::outbox {
namespace dynamodb_outbox_table_test {

OutboxRecord sample() {
  OutboxRecord r;
  r.sequence = 7;
  r.id = Uuid::v7().to_string();
  r.tenant = "acme";
  r.event_type = "Shipped";
  r.payload = std::string("\0bytes\xFF", 7);
  r.occurred_at = Timestamp(std::chrono::microseconds(1'700'000'000'000'001));
  r.causation_id = "m-1";
  r.traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  r.created_at = Timestamp(std::chrono::microseconds(1'700'000'000'000'002));
  r.next_attempt_at = r.created_at;
  return r;
}

TableSchema schema() {
  return outbox_table_schema(
      parse_store_url("dynamodb://127.0.0.1:8000?region=us-east-1&table_prefix=t_"));
}

TEST(DynamoDbOutboxTable, ARecordSurvivesItsItem) {
  const OutboxRecord r = sample();
  const OutboxRecord back = record_of(message_item(schema(), r), "test");
  EXPECT_EQ(back.sequence, r.sequence);
  EXPECT_EQ(back.id, r.id);
  EXPECT_EQ(back.tenant, r.tenant);
  EXPECT_EQ(back.payload, r.payload);
  EXPECT_EQ(back.occurred_at, r.occurred_at);
  EXPECT_EQ(back.causation_id, r.causation_id);
  EXPECT_EQ(back.correlation_id, std::nullopt);
  EXPECT_EQ(back.traceparent, r.traceparent);
  EXPECT_EQ(back.tracestate, "");
  EXPECT_EQ(back.created_at, r.created_at);
  EXPECT_EQ(back.status, OutboxStatus::kPending);
  EXPECT_EQ(back.attempts, 0);
  EXPECT_EQ(back.done_at, std::nullopt);
}

TEST(DynamoDbOutboxTable, ANewItemIsInThePendingAndFeedIndexesOnly) {
  const nlohmann::json item = message_item(schema(), sample());
  EXPECT_EQ(schema().name, "t_docket_outbox");
  EXPECT_EQ(item.at(std::string(kPendingShard)).at("N"), "3");  // 7 % 4
  EXPECT_EQ(item.at(std::string(kFeedShard)).at("N"), "3");
  EXPECT_FALSE(item.contains(std::string(kParkedShard)));
  EXPECT_FALSE(item.contains(std::string(kDoneShard)));
}

TEST(DynamoDbOutboxTable, AnItemOfAnUnknownStatusIsRefused) {
  nlohmann::json item = message_item(schema(), sample());
  item[std::string(kStatus)] = {{"N", "9"}};
  EXPECT_THROW(record_of(item, "test"), InfrastructureError);
}

TEST(DynamoDbOutboxRequests, EachChangeMovesTheItemBetweenStatusIndexesUnderItsCondition) {
  const Timestamp now = Timestamp(std::chrono::seconds(1'800'000'000));
  const auto update = [](const nlohmann::json& action) {
    return action.at("Update").at("UpdateExpression").get<std::string>();
  };
  const auto condition = [](const nlohmann::json& action, const char* operation) {
    return action.at(operation).at("ConditionExpression").get<std::string>();
  };
  const nlohmann::json complete = complete_action("t", "id", "token", now);
  EXPECT_NE(update(complete).find("#done_shard = #feed_shard"), std::string::npos);
  EXPECT_NE(update(complete).find("REMOVE #pending_shard"), std::string::npos);
  EXPECT_EQ(condition(complete, "Update"), "#status = :pending AND #lease_token = :token");

  const nlohmann::json park = fail_action("t", "id", "token", {.error = "e", .park = true});
  EXPECT_NE(update(park).find("#parked_shard = #feed_shard"), std::string::npos);
  EXPECT_NE(update(park).find("REMOVE #pending_shard"), std::string::npos);
  const nlohmann::json retry =
      fail_action("t", "id", "token", {.error = "e", .park = false, .next_attempt_at = now});
  EXPECT_EQ(update(retry).find("pending_shard"), std::string::npos);  // stays pending

  const nlohmann::json replay = replay_action("t", "id", now);
  EXPECT_NE(update(replay).find("#pending_shard = #feed_shard"), std::string::npos);
  EXPECT_NE(update(replay).find("REMOVE #parked_shard"), std::string::npos);
  EXPECT_EQ(condition(replay, "Update"), "#status = :parked");

  OutboxRecord read = sample();
  read.attempts = 2;
  const nlohmann::json lease = lease_action("t", read, "token", now, now);
  EXPECT_NE(condition(lease, "Update").find("#attempts = :attempts"), std::string::npos);
  EXPECT_EQ(lease.at("Update").at("ExpressionAttributeValues").at(":attempts").at("N"), "2");

  EXPECT_EQ(condition(purge_action("t", "id", now), "Delete"),
            "#status = :done AND #done_at < :cutoff");
}

}  // namespace dynamodb_outbox_table_test
}  // namespace docket::dynamodb::detail::outbox
