// The Cosmos DB tenant re-key's own cases (cosmos_tenant_rekey.h): a stream's move is two
// batches, the creates in its new partition and then the deletes in its legacy one, so a
// run can stop between them. Here a target that stops there (as a kill would) leaves the
// marker, the new items and the legacy ones; every store refuses; the next run only
// deletes, verifies and removes the marker. A legacy item that changes between the two
// batches is not deleted, and the run refuses, leaving the marker. What every provider's
// re-key does through the tool is tests/tool/tenant_rekey_cases.h's
// (../conformance/cosmos_tenant_rekey_test.cc).
#include "providers/cosmos/cosmos_tenant_rekey.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_event_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_legacy_guard.h"
#include "providers/cosmos/cosmos_saga_item.h"
#include "providers/cosmos/cosmos_saga_store.h"
#include "providers/cosmos/cosmos_tenant_rekey_marker.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "providers/kit/tenant_rekey_procedure.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kLegacyStream = "order:S-1";
constexpr int kEvents = 3;

// Forwards to a CosmosRekeyTarget but for an event commit, which it stops between its two
// batches: after the creates it calls `between` and, unless that returns true, throws as
// a killed run would end (its legacy items neither deleted nor told apart).
class StoppingTarget final : public kit::TenantRekeyTarget {
 public:
  StoppingTarget(const CosmosRekeyTarget& inner, std::function<bool()> between)
      : inner_(inner), between_(std::move(between)) {}

  bool commit(std::span<const kit::RekeyMove* const> moves,
              std::span<const kit::RekeyMove* const> deletes) const override {
    if ((moves.empty() ? deletes : moves).front()->record->kind == kit::RekeyKind::kSaga) {
      return inner_.commit(moves, deletes);
    }
    if (!inner_.create_new(moves)) {
      return false;
    }
    if (!between_()) {
      throw std::runtime_error("killed between the creates and the deletes");
    }
    return inner_.delete_old(moves, deletes);
  }

  keys::Provider key_shape() const override { return inner_.key_shape(); }
  std::string where(kit::RekeyKind kind) const override { return inner_.where(kind); }
  bool holds_tenant(const TenantId& tenant) const override { return inner_.holds_tenant(tenant); }
  std::vector<kit::LegacyRecord> legacy_records(kit::RekeyKind kind) const override {
    return inner_.legacy_records(kind);
  }
  kit::RekeyMove event_move(const kit::LegacyRecord& record,
                            const StreamId& stream) const override {
    return inner_.event_move(record, stream);
  }
  kit::RekeyMove saga_move(const kit::LegacyRecord& record, const SagaId& saga) const override {
    return inner_.saga_move(record, saga);
  }
  std::size_t moves_per_write() const override { return inner_.moves_per_write(); }
  std::size_t weight_per_write() const override { return inner_.weight_per_write(); }
  std::optional<nlohmann::json> read_new(const kit::RekeyMove& move) const override {
    return inner_.read_new(move);
  }
  std::string marker_where() const override { return inner_.marker_where(); }
  std::optional<kit::RekeyMarker> read_marker() const override { return inner_.read_marker(); }
  void write_marker(const kit::RekeyMarker& marker) const override { inner_.write_marker(marker); }
  void remove_marker() const override { inner_.remove_marker(); }
  std::vector<StreamId> tenant_streams(const TenantId& tenant) const override {
    return inner_.tenant_streams(tenant);
  }
  std::vector<SagaId> tenant_sagas(const TenantId& tenant) const override {
    return inner_.tenant_sagas(tenant);
  }
  std::unique_ptr<EventStore> verifying_event_store() const override {
    return inner_.verifying_event_store();
  }
  std::unique_ptr<SagaStore> verifying_saga_store() const override {
    return inner_.verifying_saga_store();
  }

 private:
  const CosmosRekeyTarget& inner_;
  std::function<bool()> between_;
};

class CosmosTenantRekeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int v = 0; v < kEvents; ++v) {
      nlohmann::json item = event::event_item(kLegacyStream, event_at(v));
      for (const char* added : {"tenant", "aggregateType", "aggregateId"}) {
        item.erase(added);
      }
      put(events_, event::kPartitionKeyPath, item, kLegacyStream);
    }
    const SagaId saga(TenantId::default_tenant(), "checkout", "S-1");
    nlohmann::json item = saga::saga_item(saga, saga::saga_address(saga),
                                          SagaRecord{.version = 2,
                                                     .state = "paid",
                                                     .status = SagaStatus::kActive,
                                                     .started_at = Timestamp{},
                                                     .updated_at = Timestamp{},
                                                     .completed_at = std::nullopt});
    item["id"] = "S-1";
    item.erase("tenant");
    item.erase("listKey");
    put(sagas_, saga::kPartitionKeyPath, item, "checkout");
  }

  RecordedEvent event_at(int version) const {
    return RecordedEvent{.stream = stream_,
                         .version = version,
                         .global_position = 0,
                         .event_id = ids_[static_cast<std::size_t>(version)],
                         .type = "placed",
                         .payload = "p" + std::to_string(version),
                         .metadata = {},
                         .occurred_at = Timestamp{}};
  }

  void put(const std::string& container, std::string_view path, const nlohmann::json& item,
           std::string_view partition) const {
    client_.ensure_container(container, path);
    ASSERT_TRUE(create_item(client_,
                            {.container = container,
                             .id = item["id"].get_ref<const std::string&>(),
                             .partition_key = partition},
                            item));
  }

  // How many items the stream's partition `key` holds.
  std::size_t items_of(const std::string& key) const {
    return query_items(client_,
                       {.container = events_,
                        .sql = "SELECT VALUE c.id FROM c WHERE c.streamId = @s",
                        .parameters = {{{"name", "@s"}, {"value", key}}},
                        .partition = key},
                       100)
        .size();
  }

  std::uint64_t legacy_left() const {
    std::uint64_t left = 0;
    for (const LegacyKeyPlace& place : scan_legacy_containers(database_.url(), 10).places) {
      left += place.legacy;
    }
    return left;
  }

  TenantRekeyOptions options() const { return {.tenant = std::string(kDefaultTenant)}; }

  test_support::CosmosDatabase database_;
  Client client_{parse_store_url(database_.url())};
  std::string events_ = client_.url().container(event::kContainer);
  std::string sagas_ = client_.url().container(saga::kContainer);
  StreamId stream_{TenantId::default_tenant(), "order", "S-1"};
  std::string new_key_ = event::stream_key(stream_);
  std::vector<Uuid> ids_{Uuid::v7(), Uuid::v7(), Uuid::v7()};
};

TEST_F(CosmosTenantRekeyTest, ARunStoppedBetweenTheCreatesAndTheDeletesIsResumed) {
  const CosmosRekeyTarget target(database_.url());
  const StoppingTarget stopping(target, [] { return false; });
  EXPECT_THROW(kit::run_tenant_rekey(stopping, options()), std::runtime_error);

  // Both shapes are held, whole, under the marker.
  EXPECT_EQ(items_of(std::string(kLegacyStream)), static_cast<std::size_t>(kEvents));
  EXPECT_EQ(items_of(new_key_), static_cast<std::size_t>(kEvents));
  const std::optional<kit::RekeyMarker> marker = read_rekey_marker(client_);
  ASSERT_TRUE(marker.has_value());
  EXPECT_EQ(marker->tenant, kDefaultTenant);
  // Every store refuses while it is there, though the new stream loads whole.
  CosmosEventStore events(database_.url(), SystemClock::instance());
  try {
    events.load(stream_);
    ADD_FAILURE() << "the event store loaded under the marker";
  } catch (const LegacyDataError& error) {
    EXPECT_THAT(error.what(), HasSubstr("a tenant re-key under tenant '__default__'"));
    EXPECT_THAT(error.what(), HasSubstr("docket_tenant_rekey"));
  }
  EXPECT_THROW(events.append(stream_, ExpectedVersion::any(), {NewEvent{.type = "forked"}}),
               LegacyDataError);
  CosmosSagaStore sagas(database_.url(), SystemClock::instance());
  EXPECT_THROW(sagas.load(SagaId(TenantId::default_tenant(), "checkout", "S-1")), LegacyDataError);

  // The next run finds each new item holding the same content and only deletes.
  const TenantRekeyReport report = kit::run_tenant_rekey(target, options());
  EXPECT_EQ(report.events, 0u);
  EXPECT_EQ(report.events_already, static_cast<std::uint64_t>(kEvents));
  EXPECT_EQ(report.sagas, 1u);
  EXPECT_EQ(report.streams_verified, 1u);
  EXPECT_EQ(report.sagas_verified, 1u);
  EXPECT_FALSE(read_rekey_marker(client_).has_value());
  EXPECT_EQ(items_of(std::string(kLegacyStream)), 0u);
  EXPECT_EQ(legacy_left(), 0u);

  CosmosEventStore after(database_.url(), SystemClock::instance());
  const std::vector<RecordedEvent> loaded = after.load(stream_);
  ASSERT_EQ(loaded.size(), static_cast<std::size_t>(kEvents));
  for (int v = 0; v < kEvents; ++v) {
    EXPECT_EQ(loaded[static_cast<std::size_t>(v)].event_id, ids_[static_cast<std::size_t>(v)]);
    EXPECT_EQ(loaded[static_cast<std::size_t>(v)].payload, "p" + std::to_string(v));
  }
  CosmosSagaStore sagas_after(database_.url(), SystemClock::instance());
  const std::optional<SagaRecord> saga =
      sagas_after.load(SagaId(TenantId::default_tenant(), "checkout", "S-1"));
  ASSERT_TRUE(saga.has_value());
  EXPECT_EQ(saga->version, 2);
  EXPECT_EQ(saga->state, "paid");
  EXPECT_EQ(sagas_after.list({.tenant = TenantId::default_tenant()}).sagas.size(), 1u);
}

// A legacy item rewritten between the creates and the deletes (its etag changed) is not
// deleted: the run refuses naming it, the marker stays, and a run after the writer stopped
// finishes it.
TEST_F(CosmosTenantRekeyTest, ALegacyItemChangedBetweenTheBatchesIsKept) {
  const CosmosRekeyTarget target(database_.url());
  const StoppingTarget stopping(target, [&] {
    const ItemAddress first{.container = events_, .id = "0", .partition_key = kLegacyStream};
    const std::optional<ReadItem> item = read_item(client_, first);
    EXPECT_TRUE(item.has_value());
    EXPECT_TRUE(replace_item(client_, first, item->body, item->etag).has_value());
    return true;
  });
  try {
    kit::run_tenant_rekey(stopping, options());
    ADD_FAILURE() << "the run went past a changed legacy item";
  } catch (const InfrastructureError& error) {
    EXPECT_THAT(error.what(), HasSubstr("changed while it was being re-keyed"));
    EXPECT_THAT(error.what(), HasSubstr("no legacy record of its batch was deleted"));
  }
  EXPECT_EQ(items_of(std::string(kLegacyStream)), static_cast<std::size_t>(kEvents));
  EXPECT_EQ(items_of(new_key_), static_cast<std::size_t>(kEvents));
  EXPECT_TRUE(read_rekey_marker(client_).has_value());

  const TenantRekeyReport report = kit::run_tenant_rekey(target, options());
  EXPECT_EQ(report.events_already, static_cast<std::uint64_t>(kEvents));
  EXPECT_EQ(report.streams_verified, 1u);
  EXPECT_FALSE(read_rekey_marker(client_).has_value());
  EXPECT_EQ(legacy_left(), 0u);
}

}  // namespace
}  // namespace docket::cosmos::detail
