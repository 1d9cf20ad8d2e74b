// docket migrate tenant-rekey on DynamoDB Local (tests/tool/tenant_rekey_cases.h): legacy
// items written raw, as an earlier release stored them (streams keyed
// {aggregateType}:{aggregateId}, sagas SAGA#{sagaId} with no tenant attribute), under a
// table prefix of the test's own.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "docket/keys/provider.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "providers/kit/key_bridge.h"
#include "tool/tenant_rekey_cases.h"

namespace docket::testing {
namespace {

class DynamoDbLegacySeeder final : public LegacySeeder {
 public:
  std::string url() const override { return tables_.url(); }

 protected:
  void write_event(const RecordedEvent& event, bool tenanted) const override {
    // The legacy key joins the raw terms, as the earlier release did.
    const std::string key = tenanted
                                ? kit::stream_key(keys::Provider::kDynamoDb, event.stream).value
                                : event.stream.aggregate_type() + ":" + event.stream.aggregate_id();
    put(dynamodb::detail::events_table_schema(tables_.prefix() +
                                              std::string(dynamodb::detail::kEventsTableBase)),
        dynamodb::detail::event_item(key, event));
  }

  // The saga's item; a legacy one keyed SAGA#{sagaId}, without the attributes its
  // indexes read (tenant, shard).
  void write_saga(const SagaId& saga, bool tenanted, const SagaRecord& record) const override {
    const dynamodb::detail::TableSchema schema =
        dynamodb::detail::saga::saga_table_schema(client_.url());
    nlohmann::json item = dynamodb::detail::saga::saga_item(schema, saga, record);
    if (!tenanted) {
      item[std::string(dynamodb::detail::saga::kKey)] =
          dynamodb::detail::string_value("SAGA#" + saga.saga_id());
      item.erase(std::string(dynamodb::detail::saga::kTenant));
      item.erase(std::string(dynamodb::detail::saga::kShard));
    }
    put(schema, item);
  }

  void write_event_naming(const RecordedEvent& event, std::string_view own_tenant) const override {
    nlohmann::json item = dynamodb::detail::event_item(
        event.stream.aggregate_type() + ":" + event.stream.aggregate_id(), event);
    item["tenant"] = dynamodb::detail::string_value(own_tenant);
    put(dynamodb::detail::events_table_schema(tables_.prefix() +
                                              std::string(dynamodb::detail::kEventsTableBase)),
        item);
  }

  void write_saga_naming(const SagaId& saga, const SagaRecord& record,
                         std::string_view own_tenant) const override {
    const dynamodb::detail::TableSchema schema =
        dynamodb::detail::saga::saga_table_schema(client_.url());
    nlohmann::json item = dynamodb::detail::saga::saga_item(schema, saga, record);
    item[std::string(dynamodb::detail::saga::kKey)] =
        dynamodb::detail::string_value("SAGA#" + saga.saga_id());
    item[std::string(dynamodb::detail::saga::kTenant)] = dynamodb::detail::string_value(own_tenant);
    item.erase(std::string(dynamodb::detail::saga::kShard));
    put(schema, item);
  }

 private:
  void put(const dynamodb::detail::TableSchema& schema, const nlohmann::json& item) const {
    dynamodb::detail::ensure_table(client_, schema);
    const dynamodb::detail::Response response = client_.call(
        {.operation = "PutItem", .table = schema.name, .replay = dynamodb::detail::Replay::kSafe},
        {{"TableName", schema.name}, {"Item", item}});
    ASSERT_TRUE(response.ok());
  }

  test_support::DynamoDbTables tables_;
  dynamodb::detail::Client client_{dynamodb::detail::parse_store_url(tables_.url())};
};

std::unique_ptr<LegacySeeder> make_dynamodb_seeder() {
  return std::make_unique<DynamoDbLegacySeeder>();
}

INSTANTIATE_TEST_SUITE_P(DynamoDb, TenantRekey, ::testing::Values(&make_dynamodb_seeder));

}  // namespace
}  // namespace docket::testing
