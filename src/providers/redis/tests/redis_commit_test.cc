// What the Redis inbox's commit script refuses, against the real server: an insert
// into a key that exists, a write to a key of another type (as the server holds it, or
// as the unit's earlier writes leave it), each with nothing of the unit written; and
// the writes of a unit that commits, in the order queued.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/redis/transaction.h"
#include "docket/spi/inbox_unit.h"
#include "docket/stores/open_store.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::redis {
namespace {

using detail::Replay;
using test_support::RedisDatabase;
using ::testing::HasSubstr;

class RedisCommitTest : public ::testing::Test {
 protected:
  std::unique_ptr<UnitOfWork> begin() { return store_->begin(); }
  static Transaction& tx(UnitOfWork& unit) {
    return dynamic_cast<Transaction&>(unit.handler_transaction());
  }
  std::string key(const std::string& name) const { return database_.prefix() + "app:" + name; }
  std::optional<std::string> get(const std::string& name) {
    return database_.pool().run({"GET", key(name)}, Replay::kSafe).ok().string();
  }

  RedisDatabase database_;
  SystemClock clock_;
  std::unique_ptr<InboxStore> store_ = open_inbox_store(database_.url(), clock_);
};

TEST_F(RedisCommitTest, AUnitsWritesCommitInTheOrderQueued) {
  auto unit = begin();
  tx(*unit).set(key("a"), "1");
  tx(*unit).remove(key("a"));
  tx(*unit).hset(key("a"), "f", "v");
  tx(*unit).sadd(key("s"), "m");
  tx(*unit).rpush(key("l"), "x");
  tx(*unit).insert(key("i"), "first");
  unit->commit();
  EXPECT_EQ(database_.pool().run({"HGET", key("a"), "f"}, Replay::kSafe).ok().string(), "v");
  EXPECT_EQ(database_.pool().run({"SCARD", key("s")}, Replay::kSafe).ok().integer(), 1);
  EXPECT_EQ(database_.pool().run({"LLEN", key("l")}, Replay::kSafe).ok().integer(), 1);
  EXPECT_EQ(get("i"), "first");
}

TEST_F(RedisCommitTest, AnInsertIntoAnExistingKeyWritesNothing) {
  database_.pool().run({"SET", key("taken"), "old"}, Replay::kSafe).ok();
  auto unit = begin();
  tx(*unit).set(key("other"), "new");
  tx(*unit).insert(key("taken"), "new");
  try {
    unit->commit();
    FAIL() << "no refusal";
  } catch (const UniqueViolationError& e) {
    EXPECT_EQ(e.table(), key("taken"));
    EXPECT_THAT(e.what(), HasSubstr("nothing of this unit was written"));
  }
  EXPECT_EQ(get("taken"), "old");
  EXPECT_EQ(get("other"), std::nullopt);
}

TEST_F(RedisCommitTest, TwoInsertsOfOneKeyInOneUnitAreAViolation) {
  auto unit = begin();
  tx(*unit).insert(key("twice"), "1");
  tx(*unit).insert(key("twice"), "2");
  EXPECT_THROW(unit->commit(), UniqueViolationError);
  EXPECT_EQ(get("twice"), std::nullopt);
}

TEST_F(RedisCommitTest, AWriteToAKeyOfAnotherTypeWritesNothing) {
  database_.pool().run({"RPUSH", key("list"), "x"}, Replay::kSafe).ok();
  auto unit = begin();
  tx(*unit).set(key("before"), "1");
  tx(*unit).hset(key("list"), "f", "v");
  try {
    unit->commit();
    FAIL() << "no refusal";
  } catch (const InvalidInputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("holds a list, which HSET cannot write (WRONGTYPE)"));
  }
  EXPECT_EQ(get("before"), std::nullopt);
}

TEST_F(RedisCommitTest, TypesAreCheckedAsTheUnitsEarlierWritesLeaveThem) {
  auto unit = begin();
  tx(*unit).set(key("k"), "text");
  tx(*unit).sadd(key("k"), "member");  // a string by then
  EXPECT_THROW(unit->commit(), InvalidInputError);
  EXPECT_EQ(get("k"), std::nullopt);
}

// A key of another type where a dedup record belongs (something else writing in docket's
// prefix) is refused, naming it, and never read as a duplicate: that would drop the
// message.
TEST_F(RedisCommitTest, AStrayKeyWhereADedupRecordBelongsIsRefusedNotReadAsADuplicate) {
  const DedupKey dedup{"acme", "billing", "m-1"};
  const std::string record =
      detail::dedup_key(detail::parse_url(database_.url()), detail::dedup_id(dedup));
  database_.pool().run({"SET", record, "stray"}, Replay::kSafe).ok();
  try {
    store_->is_recorded(dedup);
    FAIL() << "no refusal";
  } catch (const InfrastructureError& e) {
    EXPECT_THAT(e.what(), HasSubstr("'" + record + "' holds a string"));
    EXPECT_THAT(e.what(), HasSubstr("WRONGTYPE in docket's prefix"));
  }
  auto unit = spi::InboxStoreAccess::begin(*store_);
  tx(*unit).set(key("effect"), "1");
  InboxRecord stray_record;
  stray_record.key = dedup;
  stray_record.event_type = "ping";
  ASSERT_TRUE(unit->record_at_commit(stray_record));
  try {
    unit->commit();
    FAIL() << "no refusal";
  } catch (const InfrastructureError& e) {
    EXPECT_THAT(e.what(), HasSubstr("nothing of this unit was written"));
  }
  EXPECT_EQ(get("effect"), std::nullopt);
}

}  // namespace
}  // namespace docket::redis
