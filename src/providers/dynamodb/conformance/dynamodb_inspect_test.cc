// docket events show and docket sagas show on DynamoDB Local while items of an earlier
// release's untenanted shape are present (written here raw): each command exits 1 with
// the legacy-key guard's message naming the table and the key, docket migrate scan counts
// it, and each answers normally once the legacy item is gone, which is how an operator
// checks a re-key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "tool/tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

class DynamoDbInspectTest : public ::testing::Test {
 protected:
  void put(const dynamodb::detail::TableSchema& schema, const nlohmann::json& item) const {
    dynamodb::detail::ensure_table(client_, schema);
    const dynamodb::detail::Response response = client_.call(
        {.operation = "PutItem", .table = schema.name, .replay = dynamodb::detail::Replay::kSafe},
        {{"TableName", schema.name}, {"Item", item}});
    ASSERT_TRUE(response.ok());
  }
  void remove(const std::string& table, const nlohmann::json& key) const {
    client_.call(
        {.operation = "DeleteItem", .table = table, .replay = dynamodb::detail::Replay::kSafe},
        {{"TableName", table}, {"Key", key}});
  }

  test_support::DynamoDbTables tables_;
  dynamodb::detail::Client client_{dynamodb::detail::parse_store_url(tables_.url())};
};

TEST_F(DynamoDbInspectTest, EventsShowRefusesWhileAnUntenantedStreamRemains) {
  const std::string table = tables_.prefix() + std::string(dynamodb::detail::kEventsTableBase);
  nlohmann::json item = dynamodb::detail::event_key("order:O-1", 0);
  item["event_id"] = dynamodb::detail::string_value("0190a6c2-0000-7000-8000-000000000000");
  item["type"] = dynamodb::detail::string_value("placed");
  item["payload"] = dynamodb::detail::binary_value("{}");
  item["occurred_at"] = dynamodb::detail::number_value(0);
  put(dynamodb::detail::events_table_schema(table), item);
  const std::vector<std::string> show{
      "events",           "show",  "--store",        tables_.url(), "--tenant", "acme",
      "--aggregate-type", "order", "--aggregate-id", "O-1",         "--json"};
  const ToolRun refused = run_docket(show);
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("order:O-1"));
  EXPECT_THAT(refused.err, HasSubstr(table));

  remove(table, dynamodb::detail::event_key("order:O-1", 0));
  const ToolRun quiet = run_docket(show);
  EXPECT_EQ(quiet.exit_code, 0) << describe(quiet);
  EXPECT_TRUE(nlohmann::json::parse(quiet.out)["events"].empty());
}

TEST_F(DynamoDbInspectTest, SagasShowRefusesWhileAnUntenantedSagaRemains) {
  const dynamodb::detail::TableSchema schema =
      dynamodb::detail::saga::saga_table_schema(client_.url());
  const nlohmann::json key = {{"pk", dynamodb::detail::string_value("SAGA#O-1")},
                              {"saga_type", dynamodb::detail::string_value("checkout")}};
  nlohmann::json item = key;
  item["version"] = dynamodb::detail::number_value(3);
  item["state"] = dynamodb::detail::binary_value("paid");
  item["status"] = dynamodb::detail::string_value("active");
  put(schema, item);
  const std::vector<std::string> show{"sagas",     "show", "--store",     tables_.url(),
                                      "--tenant",  "acme", "--saga-type", "checkout",
                                      "--saga-id", "O-1",  "--json"};
  const ToolRun refused = run_docket(show);
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("SAGA#O-1"));
  EXPECT_THAT(refused.err, HasSubstr(schema.name));

  // The scan finds it; the event table was never created.
  const ToolRun scan = run_docket({"migrate", "scan", "--store", tables_.url(), "--json"});
  EXPECT_EQ(scan.exit_code, 0) << describe(scan);
  const nlohmann::json report = nlohmann::json::parse(scan.out);
  EXPECT_EQ(report["legacy"], 1) << report.dump();
  EXPECT_EQ(report["places"][1]["examples"], nlohmann::json::array({"SAGA#O-1"})) << report.dump();
  EXPECT_EQ(report["places"][0]["exists"], false) << "no event table yet: " << report.dump();

  remove(schema.name, key);
  const ToolRun quiet = run_docket(show);
  EXPECT_EQ(quiet.exit_code, 0) << describe(quiet);
  EXPECT_TRUE(nlohmann::json::parse(quiet.out)["saga"].is_null());
}

}  // namespace
}  // namespace docket::testing
