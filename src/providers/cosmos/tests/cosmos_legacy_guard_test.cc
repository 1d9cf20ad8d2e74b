// The Cosmos DB event and saga stores' legacy-key guard against the test server: the
// document providers' guard cases (tests/document/legacy_guard_cases.h) in a database of
// the test's own, with items keyed without a tenant segment (written here raw, as an
// earlier release did: a stream {aggregateType}:{aggregateId}, a saga {sagaId}); and what
// only this guard does: its range query finds a legacy key sorting before the tenanted
// ones ("account:...") and one sorting after them ("zeta:..."), whatever they hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "document/legacy_guard_cases.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_event_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_saga_item.h"
#include "providers/cosmos/cosmos_saga_store.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail::legacy_guard_test {
namespace {

using document_tests::EventLegacyGuard;
using document_tests::SagaLegacyGuard;

// The stores of kind `Store` (class `Concrete`) on a database of the test's own, and its
// container `container_base` (partitioned by `partition_path`, keyed by `key_field`).
template <class Store, class Concrete>
class CosmosGuardContainer : public document_tests::ConcreteGuardStores<Store, Concrete> {
 public:
  CosmosGuardContainer(std::string_view container_base, std::string_view partition_path,
                       std::string_view key_field)
      : container_(client_.url().container(container_base)),
        partition_path_(partition_path),
        key_field_(key_field) {}

  std::string url() const override { return database_.url(); }
  std::string collection() const override { return container_; }

  // Every item as "<key> <its etag>": a rewrite changes the etag.
  std::vector<std::string> records() const override {
    client_.ensure_container(container_, partition_path_);
    std::vector<std::string> out;
    for (const nlohmann::json& item :
         query_items(client_, {.container = container_, .sql = "SELECT * FROM c"}, 10'000)) {
      out.push_back(item.value(key_field_, std::string("?")) + " " +
                    item.value("_etag", std::string("?")));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Creates `item` in its partition `partition`.
  void put(const nlohmann::json& item, std::string_view partition) const {
    client_.ensure_container(container_, partition_path_);
    ASSERT_TRUE(create_item(client_,
                            {.container = container_,
                             .id = item["id"].get_ref<const std::string&>(),
                             .partition_key = partition},
                            item));
  }

 protected:
  test_support::CosmosDatabase database_;
  Client client_{parse_store_url(database_.url())};
  std::string container_;
  std::string partition_path_;
  std::string key_field_;
};

class CosmosEventContainer final : public CosmosGuardContainer<EventStore, CosmosEventStore> {
 public:
  CosmosEventContainer()
      : CosmosGuardContainer(event::kContainer, event::kPartitionKeyPath, event::kStreamField) {}

  // An event item of stream `key` at version 0, as a release without tenant segments
  // wrote it.
  void put_raw(std::string_view key) const override {
    put({{"id", "0"},
         {event::kStreamField, key},
         {"version", 0},
         {"eventId", "0190a6c2-0000-7000-8000-000000000000"},
         {"type", "Opened"},
         {"payload", ""},
         {"occurredAt", "0"}},
        key);
  }
};

class CosmosSagaContainer final : public CosmosGuardContainer<SagaStore, CosmosSagaStore> {
 public:
  CosmosSagaContainer() : CosmosGuardContainer(saga::kContainer, saga::kPartitionKeyPath, "id") {}

  // A checkout saga item under id `key` at version 3, as a release without tenant
  // segments wrote it.
  void put_raw(std::string_view key) const override {
    put({{"id", key},
         {"sagaType", "checkout"},
         {"version", 3},
         {"state", "cGFpZA=="},
         {"status", "active"},
         {"startedAt", 1},
         {"updatedAt", 2}},
        "checkout");
  }
};

INSTANTIATE_TEST_SUITE_P(Cosmos, EventLegacyGuard,
                         ::testing::Values(document_tests::EventGuardCase{
                             .make = [] { return std::make_unique<CosmosEventContainer>(); },
                             .legacy_key = "account:A-1001",
                             .where = "Cosmos DB container",
                             .record = "event item"}));

INSTANTIATE_TEST_SUITE_P(Cosmos, SagaLegacyGuard,
                         ::testing::Values(document_tests::SagaGuardCase{
                             .make = [] { return std::make_unique<CosmosSagaContainer>(); },
                             .legacy_key = "O-1001",
                             .where = "Cosmos DB container",
                             .record = "saga item"}));

TEST(CosmosLegacyGuardTest, FindsALegacyStreamAmongTenantedOnesOnEitherSide) {
  for (const std::string legacy : {"account:A-1001", "zeta:Z-1"}) {  // before "t:", after "t;"
    const CosmosEventContainer container;
    CosmosEventStore writer(container.url(), container.clock_);
    for (const char* id : {"A-1", "A-2", "A-3"}) {
      ASSERT_TRUE(writer
                      .append(StreamId(TenantId("acme"), "account", id),
                              ExpectedVersion::no_stream(), {{.type = "Opened"}})
                      .succeeded());
    }
    ASSERT_NO_FATAL_FAILURE(container.put_raw(legacy));
    CosmosEventStore store(container.url(), container.clock_);
    try {
      store.load(StreamId(TenantId("acme"), "account", "A-1001"));
      ADD_FAILURE() << "no refusal for " << legacy;
    } catch (const LegacyDataError& e) {
      EXPECT_EQ(e.key(), legacy);
    }
    EXPECT_EQ(store.legacy_probes(), 1);
  }
}

}  // namespace
}  // namespace docket::cosmos::detail::legacy_guard_test
