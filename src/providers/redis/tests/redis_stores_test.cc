// What the Redis outbox, event and saga stores do beyond their conformance suites,
// against the real server: an outbox sequence is drawn when its unit commits (so an
// open unit holds none and commit order is sequence order); a claim leases from the due
// set alone, moving a backlog in bounded steps; a key of another type where a store's key belongs
// refuses the commit, naming it, with nothing written; and an append or a saga save inside a
// handler's unit whose stream or saga moved on refuses the whole unit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/uuid.h"
#include "docket/redis/transaction.h"
#include "docket/sagas/saga_errors.h"
#include "docket/stores/open_store.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::redis {
namespace {

using detail::Replay;
using test_support::RedisDatabase;
using ::testing::HasSubstr;

class RedisStoresTest : public ::testing::Test {
 protected:
  static Transaction& tx(UnitOfWork& unit) {
    return dynamic_cast<Transaction&>(unit.handler_transaction());
  }
  OutboxRecord message(Timestamp due) const {
    return OutboxRecord{.id = Uuid::v7().to_string(),
                        .tenant = "acme",
                        .event_type = "OrderPlaced",
                        .payload = "{}",
                        .occurred_at = clock_.now(),
                        .created_at = clock_.now(),
                        .next_attempt_at = due};
  }
  std::string stage(UnitOfWork& unit, Timestamp due) {
    const OutboxRecord record = message(due);
    outbox_->insert(unit.handler_transaction(), record);
    return record.id;
  }
  long long run_integer(const detail::Command& command) {
    return database_.pool().run(command, Replay::kSafe).ok().integer();
  }
  std::string key(std::string_view base) const { return database_.prefix() + std::string(base); }

  RedisDatabase database_;
  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  std::unique_ptr<OutboxStore> outbox_ = open_outbox_store(database_.url(), clock_);
  std::unique_ptr<InboxStore> inbox_ = open_inbox_store(database_.url(), clock_);
  std::unique_ptr<EventStore> events_ = open_event_store(database_.url(), clock_);
  std::unique_ptr<SagaStore> sagas_ = open_saga_store(database_.url(), clock_);
};

TEST_F(RedisStoresTest, AnOutboxSequenceIsDrawnWhenItsUnitCommitsNotWhenItStages) {
  auto first = outbox_->begin();
  const std::string staged_first = stage(*first, clock_.now());
  auto second = outbox_->begin();
  const std::string staged_second = stage(*second, clock_.now());
  second->commit();
  first->commit();
  {
    auto rolled_back = outbox_->begin();
    stage(*rolled_back, clock_.now());
  }  // draws nothing
  auto third = outbox_->begin();
  const std::string staged_third = stage(*third, clock_.now());
  third->commit();
  const auto feed = outbox_->read_feed(0, 10);
  ASSERT_EQ(feed.size(), 3U);
  EXPECT_EQ(feed[0].id, staged_second);
  EXPECT_EQ(feed[0].sequence, 1);
  EXPECT_EQ(feed[1].id, staged_first);
  EXPECT_EQ(feed[1].sequence, 2);
  EXPECT_EQ(feed[2].id, staged_third);
  EXPECT_EQ(feed[2].sequence, 3);  // no gap where the unit rolled back
}

TEST_F(RedisStoresTest, AClaimLeasesFromTheDueSetAndLeavesTheScheduledOnesWhereTheyWait) {
  auto unit = outbox_->begin();
  for (int i = 0; i < 50; ++i) {
    stage(*unit, clock_.now() + std::chrono::hours(1));
  }
  const std::string due = stage(*unit, clock_.now());
  unit->commit();
  const auto claimed =
      outbox_->claim("relay-1", clock_.now(), clock_.now() + std::chrono::seconds(30), 10);
  ASSERT_EQ(claimed.size(), 1U);
  EXPECT_EQ(claimed[0].id, due);
  // The leased message waits in the due set again, scored by its lease's end; nothing
  // stays in the ready set.
  EXPECT_EQ(run_integer({"ZCARD", key(detail::kOutboxReady)}), 0);
  EXPECT_EQ(run_integer({"ZCARD", key(detail::kOutboxDue)}), 51);
  EXPECT_TRUE(
      outbox_->claim("relay-2", clock_.now(), clock_.now() + std::chrono::seconds(30), 10).empty());
  const Timestamp after_lease = clock_.now() + std::chrono::seconds(31);
  EXPECT_EQ(
      outbox_->claim("relay-2", after_lease, after_lease + std::chrono::seconds(30), 10).at(0).id,
      due);
}

TEST_F(RedisStoresTest, AClaimMovesABacklogInBoundedSteps) {
  auto unit = outbox_->begin();
  for (int i = 0; i < 1100; ++i) {
    stage(*unit, clock_.now());
  }
  unit->commit();
  const Timestamp lease_until = clock_.now() + std::chrono::seconds(30);
  EXPECT_EQ(outbox_->claim("relay-1", clock_.now(), lease_until, 10).size(), 10U);
  // 1000 moved to the ready set, 10 of them leased (back in the due set by lease_until).
  EXPECT_EQ(run_integer({"ZCARD", key(detail::kOutboxReady)}), 990);
  EXPECT_EQ(run_integer({"ZCARD", key(detail::kOutboxDue)}), 110);
  // Every message is claimed in the end, each once.
  std::size_t claimed = 10;
  for (int round = 0; round < 10; ++round) {
    claimed += outbox_->claim("relay-1", clock_.now(), lease_until, 200).size();
  }
  EXPECT_EQ(claimed, 1100U);
}

TEST_F(RedisStoresTest, AStrayKeyWhereTheOutboxDueSetBelongsRefusesTheCommitWritingNothing) {
  database_.pool().run({"SET", key(detail::kOutboxDue), "stray"}, Replay::kSafe).ok();
  auto unit = outbox_->begin();
  tx(*unit).insert(key("app:order-1"), "{}");
  stage(*unit, clock_.now());
  try {
    unit->commit();
    FAIL() << "committed over a stray key";
  } catch (const InfrastructureError& e) {
    EXPECT_THAT(e.what(), HasSubstr(key(detail::kOutboxDue)));
    EXPECT_THAT(e.what(), HasSubstr("nothing of this unit was written"));
  }
  EXPECT_EQ(run_integer({"EXISTS", key("app:order-1")}), 0);
  EXPECT_EQ(run_integer({"EXISTS", key(detail::kOutboxFeed)}), 0);
  EXPECT_EQ(run_integer({"EXISTS", key(detail::kOutboxSequence)}), 0);
  // The relay's scripts refuse the stray key too, naming it, rather than read past it.
  EXPECT_THAT([&] { outbox_->read_feed(0, 10); },
              ::testing::ThrowsMessage<InfrastructureError>(HasSubstr(key(detail::kOutboxDue))));
}

TEST_F(RedisStoresTest, AStrayKeyWhereAStreamBelongsRefusesTheAppendWritingNothing) {
  const StreamId stream(TenantId("acme"), "Account", "A-1");
  const std::string stream_key =
      detail::event_stream_key(detail::parse_url(database_.url()), stream);
  database_.pool().run({"SET", stream_key, "stray"}, Replay::kSafe).ok();
  try {
    events_->append(stream, ExpectedVersion::any(), {NewEvent{.type = "Opened"}});
    FAIL() << "appended over a stray key";
  } catch (const InfrastructureError& e) {
    EXPECT_THAT(e.what(), HasSubstr(stream_key));
  }
  EXPECT_EQ(events_->last_position(), 0);
  EXPECT_EQ(run_integer({"EXISTS", key(detail::kEventPosition)}), 0);
}

TEST_F(RedisStoresTest, AnAppendInAUnitWhoseStreamMovedOnRefusesTheWholeUnit) {
  const StreamId stream(TenantId("acme"), "Account", "A-1");
  auto unit = inbox_->begin();
  tx(*unit).set(key("app:effect"), "1");
  ASSERT_FALSE(events_
                   ->append(unit->handler_transaction(), stream, ExpectedVersion::no_stream(),
                            {NewEvent{.type = "Opened"}})
                   .is_conflict());
  ASSERT_FALSE(events_->append(stream, ExpectedVersion::no_stream(), {NewEvent{.type = "Other"}})
                   .is_conflict());
  EXPECT_THROW(unit->commit(), ConcurrencyConflictError);
  EXPECT_EQ(run_integer({"EXISTS", key("app:effect")}), 0);
  const auto loaded = events_->load(stream);
  ASSERT_EQ(loaded.size(), 1U);
  EXPECT_EQ(loaded[0].type, "Other");
}

TEST_F(RedisStoresTest, ASagaSavedInAUnitAfterAnotherSaveRefusesTheWholeUnit) {
  const SagaId saga(TenantId("acme"), "Order", "o-1");
  auto unit = inbox_->begin();
  tx(*unit).set(key("app:effect"), "1");
  ASSERT_FALSE(sagas_->save(unit->handler_transaction(), saga, kNewSaga, "in unit").is_conflict());
  ASSERT_FALSE(sagas_->save(saga, kNewSaga, "alone").is_conflict());
  EXPECT_THROW(unit->commit(), SagaConflictError);
  EXPECT_EQ(run_integer({"EXISTS", key("app:effect")}), 0);
  EXPECT_EQ(sagas_->load(saga)->state, "alone");
}

}  // namespace
}  // namespace docket::redis
