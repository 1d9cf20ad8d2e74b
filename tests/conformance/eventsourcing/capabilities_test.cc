// Event, snapshot and saga store capabilities: every provider here states an ordered
// feed and joining a handler's transaction for its event store (the other suites rely
// on both), a saga store that joins its transaction type's transactions, a snapshot
// store that joins nothing, and where its database lives; a store that states no
// ordered feed is refused read_all, and a catch-up consumer, before any read.
#include "docket/error.h"
#include "docket/feed_cursor.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

class EventStoreCapabilities : public StoreConformance {};

TEST_P(EventStoreCapabilities, RelationalAndMemoryStoresStateAnOrderedFeedAndJoinHandlerWrites) {
  const StoreCapabilities caps = events_->capabilities();
  EXPECT_EQ(caps.feed, FeedKind::kGlobalPositions);
  EXPECT_TRUE(caps.joins_handler_writes);
  EXPECT_TRUE(caps.interactive_transactions);
  EXPECT_EQ(caps.max_writes_per_commit, 0u);
  EXPECT_EQ(caps.shared_between_processes, GetParam().multi_process);
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreCapabilities, ::testing::ValuesIn(all_providers()),
                         provider_name);

class SnapshotStoreCapabilities : public StoreConformance {};

TEST_P(SnapshotStoreCapabilities, ASnapshotStoreJoinsNothingAndLivesWithTheProvidersStores) {
  const StoreCapabilities caps = snapshots_->capabilities();
  EXPECT_FALSE(caps.joins_handler_writes);  // no overload takes a transaction
  EXPECT_FALSE(caps.interactive_transactions);
  EXPECT_EQ(caps.feed, FeedKind::kNone);
  EXPECT_FALSE(caps.server_side_expiry);
  EXPECT_EQ(caps.max_writes_per_commit, 0u);
  EXPECT_EQ(caps.max_bytes_per_commit, 0u);
  EXPECT_EQ(caps.shared_between_processes, GetParam().multi_process);
  EXPECT_EQ(caps.shared_between_processes, events_->capabilities().shared_between_processes);
}

INSTANTIATE_TEST_SUITE_P(Providers, SnapshotStoreCapabilities, ::testing::ValuesIn(all_providers()),
                         provider_name);

class SagaStoreCapabilities : public StoreConformance {};

TEST_P(SagaStoreCapabilities, ASagaStoreJoinsItsTransactionTypeAndHasNoFeed) {
  const StoreCapabilities caps = sagas_->capabilities();
  // Every provider here joins (handler_saga_test.cc relies on it), in the one type it
  // states, which is its event store's.
  EXPECT_TRUE(caps.joins_handler_writes);
  ASSERT_EQ(caps.joins_handler_writes, sagas_->transaction_type().has_value());
  EXPECT_EQ(sagas_->transaction_type()->name,
            "docket::" + std::string(sagas_->provider_name()) + "::Transaction");
  EXPECT_TRUE(caps.interactive_transactions);
  EXPECT_EQ(caps.feed, FeedKind::kNone);
  EXPECT_FALSE(caps.server_side_expiry);
  EXPECT_EQ(caps.max_writes_per_commit, 0u);
  EXPECT_EQ(caps.max_bytes_per_commit, 0u);
  EXPECT_EQ(caps.shared_between_processes, GetParam().multi_process);
}

INSTANTIATE_TEST_SUITE_P(Providers, SagaStoreCapabilities, ::testing::ValuesIn(all_providers()),
                         provider_name);

// The front end's refusal, before a provider is reached: every provider hook fails the
// test if called.
class FeedlessEventStore final : public EventStore {
 public:
  FeedlessEventStore() : EventStore(SystemClock::instance()) {}
  std::string_view provider_name() const noexcept override { return "feedless"; }
  StoreCapabilities capabilities() const noexcept override { return {}; }

 private:
  AppendResult do_append(const StreamId&, ExpectedVersion, std::vector<RecordedEvent>) override {
    throw std::logic_error("not reached");
  }
  std::vector<RecordedEvent> do_load(const StreamId&, std::int64_t) override {
    throw std::logic_error("not reached");
  }
  ReadAllPage do_read_all(std::int64_t, std::size_t, const TenantId*) override {
    ADD_FAILURE() << "a feed read reached a store without a feed";
    return {};
  }
};

TEST(EventStoreFrontEnd, ReadAllIsRefusedWhereTheStoreHasNoOrderedFeed) {
  FeedlessEventStore store;
  try {
    store.read_all(0, 10);
    FAIL() << "no refusal";
  } catch (const ConfigurationError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the feedless event store cannot read every stream in one order"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("build the feed from the outbox"), std::string::npos) << message;
  }
}

TEST(EventStoreReadFeedFrontEnd, IsRefusedWhereTheStoreHasNoFeed) {
  FeedlessEventStore store;
  EXPECT_FALSE(store.accepts_cursor(FeedCursor::start()));
  try {
    store.read_feed(FeedCursor::start(), 10);
    FAIL() << "no refusal";
  } catch (const ConfigurationError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("the feedless event store cannot read a feed over every stream"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("build the feed from the outbox"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace docket::conformance::eventsourcing
