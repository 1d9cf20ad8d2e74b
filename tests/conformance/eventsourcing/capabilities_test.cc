// Event, snapshot and saga store capabilities, and that each store does what they
// say: the feed a case's event store states (the suites gate on it), where the stores
// live, the limits of one append and one record (refused before anything is written,
// or, where there is none, not met by large appends and records), the refusal of
// read_all and read_feed where there is no feed, and a saga store's joining in the one
// transaction type it states.
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/feed_cursor.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

class EventStoreCapabilities : public StoreConformance {};

TEST_P(EventStoreCapabilities, StatesItsFeedAndWhereItLives) {
  const StoreCapabilities caps = events_->capabilities();
  EXPECT_EQ(caps.feed, GetParam().feed);
  EXPECT_NE(caps.feed, FeedKind::kOpaqueCursors) << "no case states opaque cursors yet";
  EXPECT_FALSE(caps.server_side_expiry);  // events never expire
  EXPECT_EQ(caps.shared_between_processes, GetParam().multi_process);
  if (caps.max_writes_per_commit == 0) {
    EXPECT_EQ(caps.max_bytes_per_commit, 0u) << "a byte limit without a write limit";
  }
}

TEST_P(EventStoreCapabilities, AppendsUpToItsCommitLimitAndRefusesBeyondIt) {
  const std::size_t limit = events_->capabilities().max_writes_per_commit;
  if (limit == 0) {  // no limit: a large append is one atomic commit
    std::vector<NewEvent> many(2'000, event("e"));
    EXPECT_EQ(append_ok(account("A-1"), ExpectedVersion::no_stream(), many), 1'999);
    return;
  }
  std::vector<NewEvent> over(limit + 1, event("e"));
  EXPECT_THROW(events_->append(account("A-1"), ExpectedVersion::no_stream(), over),
               InvalidInputError);
  EXPECT_TRUE(events_->load(account("A-1")).empty());
  std::vector<NewEvent> half(limit / 2, event("e"));
  EXPECT_EQ(append_ok(account("A-1"), ExpectedVersion::no_stream(), half),
            static_cast<std::int64_t>(half.size()) - 1);
  expect_store_total(half.size());
}

TEST_P(EventStoreCapabilities, RefusesAnEventBeyondItsRecordLimit) {
  const std::size_t limit = events_->capabilities().max_bytes_per_record;
  if (limit == 0) {  // no limit: a large event is stored whole
    append_ok(account("A-1"), ExpectedVersion::no_stream(),
              {event("big", std::string(std::size_t{4} << 20, 'x'))});
    EXPECT_EQ(events_->load(account("A-1")).at(0).payload.size(), std::size_t{4} << 20);
    return;
  }
  try {
    events_->append(account("A-1"), ExpectedVersion::no_stream(),
                    {event("small"), event("big", std::string(limit, 'x'))});
    FAIL() << "an event over the record limit was accepted";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("Nothing was written"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(events_->load(account("A-1")).empty());
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreCapabilities, ::testing::ValuesIn(event_providers()),
                         provider_name);

// A store that states no feed refuses read_all, read_feed and any cursor, with the
// alternative, before reading.
class EventStoreWithoutFeed : public StoreConformance {};

TEST_P(EventStoreWithoutFeed, RefusesEveryFeedReadNamingTheAlternative) {
  append_ok(account("A-1"), ExpectedVersion::no_stream(), {event("e0")});
  const auto expect_refusal = [](const auto& read) {
    try {
      read();
      ADD_FAILURE() << "a store without a feed read one";
    } catch (const ConfigurationError& e) {
      EXPECT_NE(std::string(e.what()).find("build the feed from the outbox"), std::string::npos)
          << e.what();
    }
  };
  expect_refusal([&] { events_->read_all(0, 10); });
  expect_refusal([&] { events_->read_all(0, 10, tenant("acme")); });
  expect_refusal([&] { events_->read_feed(FeedCursor::start(), 10); });
  EXPECT_FALSE(events_->accepts_cursor(FeedCursor::start()));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EventStoreWithoutFeed);
INSTANTIATE_TEST_SUITE_P(Providers, EventStoreWithoutFeed,
                         ::testing::ValuesIn(feedless_providers()), provider_name);

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
  if (events_) {
    EXPECT_EQ(caps.shared_between_processes, events_->capabilities().shared_between_processes);
  }
}

TEST_P(SnapshotStoreCapabilities, RefusesASnapshotBeyondItsRecordLimit) {
  const std::size_t limit = snapshots_->capabilities().max_bytes_per_record;
  if (limit == 0) {  // no limit: a large snapshot is stored whole
    snapshots_->save(account("A-1"), 3, std::string(std::size_t{4} << 20, 's'));
    EXPECT_EQ(snapshots_->load(account("A-1"))->payload.size(), std::size_t{4} << 20);
    return;
  }
  snapshots_->save(account("A-1"), 3, "kept");
  EXPECT_THROW(snapshots_->save(account("A-1"), 4, std::string(limit, 's')), InvalidInputError);
  EXPECT_EQ(snapshots_->load(account("A-1"))->payload, "kept");
}

INSTANTIATE_TEST_SUITE_P(Providers, SnapshotStoreCapabilities,
                         ::testing::ValuesIn(snapshot_providers()), provider_name);

class SagaStoreCapabilities : public StoreConformance {};

TEST_P(SagaStoreCapabilities, ASagaStoreJoinsOnlyTheTransactionTypeItStatesAndHasNoFeed) {
  const StoreCapabilities caps = sagas_->capabilities();
  ASSERT_EQ(caps.joins_handler_writes, sagas_->transaction_type().has_value());
  if (caps.joins_handler_writes) {
    EXPECT_EQ(sagas_->transaction_type()->name,
              "docket::" + std::string(sagas_->provider_name()) + "::Transaction");
  }
  EXPECT_EQ(caps.feed, FeedKind::kNone);
  EXPECT_FALSE(caps.server_side_expiry);
  EXPECT_EQ(caps.shared_between_processes, GetParam().multi_process);
}

INSTANTIATE_TEST_SUITE_P(Providers, SagaStoreCapabilities, ::testing::ValuesIn(saga_providers()),
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
