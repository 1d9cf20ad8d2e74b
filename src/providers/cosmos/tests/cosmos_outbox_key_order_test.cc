// The Cosmos DB outbox keeps order per ordering key when units of one key commit out of
// the order they drew their sequences in (cosmos_outbox_key_item.h), against the test
// server. Each case commits a second unit at one step of the first's commit
// (Unit::on_commit_step), so the race is met every run, never hoped for:
//   - the second draws and commits after the first drew: the first's batch fails on the
//     key item, it draws again and ends above the second, and the relay leases the two in
//     commit order;
//   - the second commits between the first's read of the key item and its draw: the
//     first's batch fails on the key item's etag, and it reads and sends again;
//   - a unit overtaken at every attempt gives up with InfrastructureError, writing nothing;
//   - key items count toward the batch's 100 operations, one per distinct key.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_outbox_key_item.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/cosmos/tests/cosmos_outbox_key_fixture.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;

class CosmosOutboxKeyOrderTest : public CosmosOutboxKeyFixture {};

TEST_F(CosmosOutboxKeyOrderTest,
       AUnitOvertakenAfterItsDrawDrawsAgainAndTheRelayFollowsCommitOrder) {
  const std::unique_ptr<Unit> first = unit();
  const std::unique_ptr<Unit> second = unit();
  const std::string earlier_drawn = stage(*first, "order-1");
  const std::string committed_first = stage(*second, "order-1");
  int draws = 0;
  first->on_commit_step([&](CommitStep at) {
    if (at == CommitStep::kDrawn && ++draws == 1) {
      second->commit();  // drew after the first, commits before it
    }
  });
  first->commit();
  EXPECT_EQ(draws, 2) << "the first unit's batch was not refused for the key item and sent again";
  const std::int64_t second_sequence = sequence_of(committed_first);
  const std::int64_t first_sequence = sequence_of(earlier_drawn);
  ASSERT_GT(second_sequence, 0);
  EXPECT_GT(first_sequence, second_sequence) << "per key, sequence order is not commit order";
  EXPECT_EQ(last_sequence("order-1"), first_sequence);
  // The relay leases the key's messages in commit order, one at a time.
  EXPECT_THAT(claim_ids(), ::testing::ElementsAre(committed_first));
  ASSERT_TRUE(store_->complete(committed_first, "relay", SystemClock::instance().now()));
  EXPECT_THAT(claim_ids(), ::testing::ElementsAre(earlier_drawn));
}

TEST_F(CosmosOutboxKeyOrderTest, ACommitBetweenTheKeyItemsReadAndTheBatchMakesTheBatchRetry) {
  // The key item exists, so the first unit's batch replaces it under the etag it read.
  const std::string before = produce("order-2");
  const std::int64_t before_sequence = sequence_of(before);
  EXPECT_EQ(last_sequence("order-2"), before_sequence);
  const std::unique_ptr<Unit> first = unit();
  const std::unique_ptr<Unit> second = unit();
  const std::string retried = stage(*first, "order-2");
  const std::string in_between = stage(*second, "order-2");
  int reads = 0;
  first->on_commit_step([&](CommitStep at) {
    if (at == CommitStep::kKeysRead && ++reads == 1) {
      second->commit();
    }
  });
  first->commit();
  EXPECT_EQ(reads, 2) << "the batch under a stale etag was not read and sent again";
  EXPECT_GT(sequence_of(in_between), before_sequence);
  EXPECT_GT(sequence_of(retried), sequence_of(in_between));
  EXPECT_EQ(last_sequence("order-2"), sequence_of(retried));
}

TEST_F(CosmosOutboxKeyOrderTest, AUnitOvertakenAtEveryAttemptGivesUpWritingNothing) {
  const std::unique_ptr<Unit> first = unit();
  const std::string never = stage(*first, "order-3");
  int overtaken = 0;
  first->on_commit_step([&](CommitStep at) {
    if (at == CommitStep::kDrawn) {
      ++overtaken;
      produce("order-3");
    }
  });
  try {
    first->commit();
    FAIL() << "a unit overtaken at every attempt committed";
  } catch (const InfrastructureError& error) {
    EXPECT_THAT(error.what(), HasSubstr("overtaken"));
    EXPECT_THAT(error.what(), HasSubstr("nothing of the unit of work was written"));
  }
  EXPECT_EQ(overtaken, kMaxCommitAttempts);
  EXPECT_FALSE(store_->find(never).has_value());
}

TEST_F(CosmosOutboxKeyOrderTest, KeyItemsCountTowardTheBatchsOperations) {
  const std::unique_ptr<Unit> many = unit();
  // Each distinct key takes two operations, a message of a key met already one.
  std::vector<std::string> ids;
  for (int key = 0; key < 49; ++key) {
    ids.push_back(stage(*many, "key-" + std::to_string(key)));
  }
  ids.push_back(stage(*many, "key-0"));
  ids.push_back(stage(*many, "key-1"));  // 100 operations
  EXPECT_THROW(stage(*many, "key-1"), CommitLimitError);
  EXPECT_THROW(stage(*many, "key-49"), CommitLimitError);
  many->commit();
  for (const std::string& id : ids) {
    EXPECT_GT(sequence_of(id), 0) << id;
  }
  EXPECT_EQ(last_sequence("key-0"), sequence_of(ids[49]));
  EXPECT_EQ(last_sequence("key-48"), sequence_of(ids[48]));
  EXPECT_EQ(last_sequence("key-49"), -1) << "a refused message's key item was staged";
}

TEST_F(CosmosOutboxKeyOrderTest, AMessageRefusedForRoomStagesNoKeyItem) {
  const TenantScope acme{TenantId(std::string(kKeyFixtureTenant))};
  const std::unique_ptr<Unit> full = unit();
  for (int i = 0; i < 99; ++i) {
    full->create("app-" + std::to_string(i), {{"n", i}});
  }
  // The message fits, its key item would not: neither is staged.
  EXPECT_THROW(stage(*full, "order-4"), CommitLimitError);
  full->create("app-99", {{"n", 99}});  // the 100th operation still fits
  full->commit();
  EXPECT_EQ(last_sequence("order-4"), -1);
  EXPECT_TRUE(store_->read_feed(0, 10).empty());
}

}  // namespace
}  // namespace docket::cosmos::detail
