// docket migrate tenant-rekey on the Cosmos DB test server (tests/tool/tenant_rekey_cases.h):
// legacy items written raw, as an earlier release stored them (streams keyed
// {aggregateType}:{aggregateId}, sagas with the id {sagaId} in their type's partition,
// neither with a tenant field nor the fields the current stores add for listings), in a
// database of the test's own.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_saga_item.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "tool/tenant_rekey_cases.h"

namespace docket::testing {
namespace {

namespace cosmos_rekey = docket::cosmos::detail;

class CosmosLegacySeeder final : public LegacySeeder {
 public:
  std::string url() const override { return database_.url(); }
  // A stream moves as a batch of creates in its new partition, then a batch of deletes in
  // the old one: a killed run can leave a stream between the two.
  bool moves_atomically() const override { return false; }

 protected:
  void write_event(const RecordedEvent& event, bool tenanted) const override {
    if (tenanted) {
      const std::string key = cosmos_rekey::event::stream_key(event.stream);
      put_event_item(cosmos_rekey::event::event_item(key, event), key);
      return;
    }
    put_event_item(legacy_event_item(event), legacy_stream(event));
  }

  void write_saga(const SagaId& saga, bool tenanted, const SagaRecord& record) const override {
    const cosmos_rekey::saga::SagaAddress address = cosmos_rekey::saga::saga_address(saga);
    nlohmann::json item = cosmos_rekey::saga::saga_item(saga, address, record);
    if (!tenanted) {
      item = legacy_saga_item(saga, std::move(item));
    }
    put_saga_item(item, address.partition);
  }

  void write_event_naming(const RecordedEvent& event, std::string_view own_tenant) const override {
    nlohmann::json item = legacy_event_item(event);
    item["tenant"] = own_tenant;
    put_event_item(item, legacy_stream(event));
  }

  void write_saga_naming(const SagaId& saga, const SagaRecord& record,
                         std::string_view own_tenant) const override {
    const cosmos_rekey::saga::SagaAddress address = cosmos_rekey::saga::saga_address(saga);
    nlohmann::json item =
        legacy_saga_item(saga, cosmos_rekey::saga::saga_item(saga, address, record));
    item["tenant"] = own_tenant;
    put_saga_item(item, address.partition);
  }

 private:
  // The legacy key joins the raw terms, as the earlier release did.
  static std::string legacy_stream(const RecordedEvent& event) {
    return event.stream.aggregate_type() + ":" + event.stream.aggregate_id();
  }

  static nlohmann::json legacy_event_item(const RecordedEvent& event) {
    nlohmann::json item = cosmos_rekey::event::event_item(legacy_stream(event), event);
    for (const char* added : {"tenant", "aggregateType", "aggregateId"}) {
      item.erase(added);
    }
    return item;
  }

  static nlohmann::json legacy_saga_item(const SagaId& saga, nlohmann::json item) {
    item["id"] = saga.saga_id();
    item.erase("tenant");
    item.erase("listKey");
    return item;
  }

  void put_event_item(const nlohmann::json& item, const std::string& partition) const {
    put(cosmos_rekey::event::kContainer, cosmos_rekey::event::kPartitionKeyPath, item, partition);
  }
  void put_saga_item(const nlohmann::json& item, const std::string& partition) const {
    put(cosmos_rekey::saga::kContainer, cosmos_rekey::saga::kPartitionKeyPath, item, partition);
  }

  void put(std::string_view base, std::string_view path, const nlohmann::json& item,
           const std::string& partition) const {
    const std::string container = client_.url().container(base);
    client_.ensure_container(container, path);
    ASSERT_TRUE(cosmos_rekey::create_item(client_,
                                          {.container = container,
                                           .id = item["id"].get_ref<const std::string&>(),
                                           .partition_key = partition},
                                          item));
  }

  test_support::CosmosDatabase database_;
  cosmos_rekey::Client client_{cosmos_rekey::parse_store_url(database_.url())};
};

std::unique_ptr<LegacySeeder> make_cosmos_seeder() {
  return std::make_unique<CosmosLegacySeeder>();
}

INSTANTIATE_TEST_SUITE_P(Cosmos, TenantRekey, ::testing::Values(&make_cosmos_seeder));

}  // namespace
}  // namespace docket::testing
