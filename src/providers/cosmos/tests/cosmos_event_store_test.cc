// The Cosmos DB event, snapshot and saga stores' own cases against the test server, beside
// what every store of a kind does (the event sourcing suites): keys over Cosmos DB's limits
// (a stream key over the 2,048-byte partition key limit, a saga or snapshot id over the
// 1,023-byte id limit) refused with the keys' own error before anything is sent; the
// refusal to append or save a saga inside a handler's unit of work, which is one batch in
// another container's partition; and an append that meets an existing version writing
// nothing of its batch; and an any-version append after the stream's top version.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "docket/core/error.h"
#include "docket/core/unit_of_work.h"
#include "docket/inbox/inbox_store.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_saga_item.h"
#include "providers/cosmos/cosmos_snapshot_store.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail::event_store_test {
namespace {

class CosmosEventSourcingTest : public ::testing::Test {
 protected:
  // How many items `container_base` holds (creating the container when missing).
  std::uint64_t items_in(std::string_view container_base, std::string_view partition_path) const {
    const std::string container = client_.url().container(container_base);
    client_.ensure_container(container, partition_path);
    return query_count(client_, {.container = container, .sql = "SELECT VALUE COUNT(1) FROM c"});
  }

  test_support::CosmosDatabase database_;
  Client client_{parse_store_url(database_.url())};
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
};

// Terms of the longest lengths a StreamId and SagaId take, each byte escaped to three.
const std::string kLongTenant(kMaxTenantIdBytes, ':');
const std::string kLongId(kMaxAggregateIdBytes, ':');

TEST_F(CosmosEventSourcingTest, AStreamKeyOverThePartitionKeyLimitIsRefusedSendingNothing) {
  const auto events = docket::open_event_store(database_.url(), clock_);
  const StreamId stream(TenantId(kLongTenant), "account", kLongId);
  try {
    events->append(stream, ExpectedVersion::no_stream(), {{.type = "Opened"}});
    FAIL() << "no refusal";
  } catch (const KeyTooLongError& e) {
    EXPECT_NE(std::string(e.what()).find("2048"), std::string::npos) << e.what();
  }
  EXPECT_THROW(events->load(stream), KeyTooLongError);
  EXPECT_EQ(items_in(event::kContainer, event::kPartitionKeyPath), 0u);
}

TEST_F(CosmosEventSourcingTest, ASagaOrSnapshotIdOverTheIdLimitIsRefusedSendingNothing) {
  const auto sagas = docket::open_saga_store(database_.url(), clock_);
  const SagaId saga(TenantId("acme"), "checkout", std::string(kMaxSagaIdBytes, ':'));
  try {
    sagas->save(saga, kNewSaga, "started");
    FAIL() << "no refusal";
  } catch (const KeyTooLongError& e) {
    EXPECT_NE(std::string(e.what()).find("1023"), std::string::npos) << e.what();
  }
  EXPECT_THROW(sagas->load(saga), KeyTooLongError);
  EXPECT_EQ(items_in(saga::kContainer, saga::kPartitionKeyPath), 0u);

  const auto snapshots = docket::open_snapshot_store(database_.url(), clock_);
  const StreamId stream(TenantId("acme"), "account", kLongId);
  EXPECT_THROW(snapshots->save(stream, 3, "state"), KeyTooLongError);
  EXPECT_EQ(items_in(snapshot::kContainer, snapshot::kPartitionKeyPath), 0u);
}

TEST_F(CosmosEventSourcingTest, AnAppendMeetingAWrittenVersionWritesNothingOfItsBatch) {
  const auto events = docket::open_event_store(database_.url(), clock_);
  const StreamId stream(TenantId("acme"), "account", "A-1");
  ASSERT_TRUE(events->append(stream, ExpectedVersion::no_stream(), {{.type = "e0"}, {.type = "e1"}})
                  .succeeded());
  // Expecting 0: the read of 0 and the create of 1 is refused (1 exists), 2 and 3 with it.
  const AppendResult stale = events->append(stream, ExpectedVersion::exactly(0),
                                            {{.type = "x1"}, {.type = "x2"}, {.type = "x3"}});
  ASSERT_TRUE(stale.is_conflict());
  EXPECT_EQ(stale.conflict().actual_version, 1);
  // Expecting 5 of a stream at 1: the read of 5 fails, nothing is created at 6.
  EXPECT_TRUE(events->append(stream, ExpectedVersion::exactly(5), {{.type = "y"}}).is_conflict());
  EXPECT_EQ(events->load(stream).size(), 2u);
  EXPECT_EQ(items_in(event::kContainer, event::kPartitionKeyPath), 2u);
}

TEST_F(CosmosEventSourcingTest, AHandlersUnitOfWorkIsRefusedNamingWhy) {
  const auto inbox = docket::open_inbox_store(database_.url(), clock_);
  const std::unique_ptr<UnitOfWork> unit = inbox->begin();
  const auto events = docket::open_event_store(database_.url(), clock_);
  const auto sagas = docket::open_saga_store(database_.url(), clock_);
  EXPECT_FALSE(events->capabilities().joins_handler_writes);
  EXPECT_FALSE(sagas->capabilities().joins_handler_writes);
  EXPECT_FALSE(sagas->transaction_type().has_value());
  const auto expect_refusal = [](const auto& call) {
    try {
      call();
      ADD_FAILURE() << "no refusal";
    } catch (const ConfigurationError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("docket::cosmos::Transaction"), std::string::npos) << message;
      EXPECT_NE(message.find("one partition of one container"), std::string::npos) << message;
    }
  };
  const StreamId stream(TenantId("acme"), "account", "A-1");
  const SagaId saga(TenantId("acme"), "checkout", "O-1");
  expect_refusal([&] {
    events->append(unit->handler_transaction(), stream, ExpectedVersion::no_stream(),
                   {{.type = "Opened"}});
  });
  expect_refusal([&] { sagas->save(unit->handler_transaction(), saga, kNewSaga, "s"); });
  expect_refusal([&] { sagas->load(unit->handler_transaction(), saga); });
  EXPECT_EQ(items_in(event::kContainer, event::kPartitionKeyPath), 0u);
  EXPECT_EQ(items_in(saga::kContainer, saga::kPartitionKeyPath), 0u);
}

}  // namespace
}  // namespace docket::cosmos::detail::event_store_test
