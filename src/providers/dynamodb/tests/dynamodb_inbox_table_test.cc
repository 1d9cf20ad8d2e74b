// The transactional inbox's pieces that need no server: the dedup item's id and fields
// (src/keys' shape for DynamoDB), and the key schema read back from a table description.
#include "providers/dynamodb/dynamodb_inbox_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"
#include "docket/keys/key.h"
#include "providers/dynamodb/dynamodb_key_schemas.h"

namespace docket::dynamodb::detail {
namespace {

using nlohmann::json;

const StoreUrl kUrl = parse_store_url("dynamodb://127.0.0.1:9?region=us-east-1&table_prefix=app_");

InboxRecord record(std::string tenant, std::string message_id) {
  return InboxRecord{.key = {std::move(tenant), "billing", std::move(message_id)},
                     .event_type = "order.placed",
                     .occurred_at = Timestamp(std::chrono::seconds(1)),
                     .source = "shop",
                     .causation_id = std::nullopt,
                     .correlation_id = "c-1"};
}

TEST(DynamoDbInboxTable, TheDedupIdIsTheDocumentedShapeWithTheConsumerInTheHandlersPlace) {
  const TableSchema schema = inbox::inbox_table_schema(kUrl);
  EXPECT_EQ(schema.name, "app_docket_inbox_messages");
  const json item =
      inbox::dedup_item(schema, record("acme", "m-1"), Timestamp(std::chrono::seconds(2)));
  EXPECT_EQ(item["id"]["S"], "acme:m-1:billing");
  EXPECT_EQ(item["tenant"]["S"], "acme");
  EXPECT_EQ(item["consumer_id"]["S"], "billing");
  EXPECT_EQ(item["message_id"]["S"], "m-1");
  EXPECT_EQ(item["event_type"]["S"], "order.placed");
  EXPECT_EQ(item["occurred_at"]["N"], "1000000");
  EXPECT_EQ(item["processed_at"]["N"], "2000000");
  EXPECT_EQ(item["source"]["S"], "shop");
  EXPECT_EQ(item["correlation_id"]["S"], "c-1");
  EXPECT_FALSE(item.contains("causation_id"));
  EXPECT_TRUE(item["shard"].contains("N"));
}

TEST(DynamoDbInboxTable, ASeparatorInsideATermCannotMakeTwoMessagesOneId) {
  const TableSchema schema = inbox::inbox_table_schema(kUrl);
  const json a = inbox::dedup_key(schema, {"acme:corp", "billing", "42"});
  const json b = inbox::dedup_key(schema, {"acme", "billing", "corp:42"});
  EXPECT_EQ(a["id"]["S"], "acme%3Acorp:42:billing");
  EXPECT_EQ(b["id"]["S"], "acme:corp%3A42:billing");
}

TEST(DynamoDbInboxTable, AnIdOverThePartitionKeyLimitIsRefused) {
  const TableSchema schema = inbox::inbox_table_schema(kUrl);
  EXPECT_THROW(inbox::dedup_key(schema, {"acme", "billing", std::string(2100, 'm')}),
               KeyTooLongError);
}

TEST(DynamoDbKeySchemas, ADescriptionReadsBackAsTheSchemaItWasCreatedWith) {
  const TableSchema created{.name = "orders",
                            .partition_key = {"pk", KeyType::kString},
                            .sort_key = KeyAttribute{"sk", KeyType::kNumber},
                            .global_indexes = {{.name = "by_customer",
                                                .partition_key = {"customer", KeyType::kBinary},
                                                .sort_key = std::nullopt}}};
  const TableSchema read = table_schema_of(create_table_request(created));
  EXPECT_EQ(read.name, "orders");
  EXPECT_EQ(read.partition_key.name, "pk");
  EXPECT_EQ(read.partition_key.type, KeyType::kString);
  ASSERT_TRUE(read.sort_key.has_value());
  EXPECT_EQ(read.sort_key->name, "sk");
  EXPECT_EQ(read.sort_key->type, KeyType::kNumber);
  ASSERT_EQ(read.global_indexes.size(), 1u);
  EXPECT_EQ(read.global_indexes[0].name, "by_customer");
  EXPECT_EQ(read.global_indexes[0].partition_key.type, KeyType::kBinary);
  EXPECT_FALSE(read.global_indexes[0].sort_key.has_value());
}

TEST(DynamoDbKeySchemas, ADescriptionWithoutAPartitionKeyIsAnError) {
  EXPECT_THROW(table_schema_of(json{{"TableName", "t"}, {"KeySchema", json::array()}}),
               InfrastructureError);
}

}  // namespace
}  // namespace docket::dynamodb::detail
