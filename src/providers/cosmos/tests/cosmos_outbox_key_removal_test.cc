// The Cosmos DB outbox deletes a key item once no message of its key is pending or parked
// (cosmos_outbox_key_item.h, "Removal"), against the test server, and the removal never
// reopens the race the key items close:
//   - the key item is gone after the key's last message completes (kept while another is
//     pending), after a cancel, and after the purge of a parked message;
//   - a unit that read (created) the key item before a removal and draws before it fails
//     its batch, reads and draws again, and ends above the unit that overtook it (the
//     removal at the exact step, by a hook, every run);
//   - a unit whose batch fails for another reason deletes the key item its read created;
//   - real threads released by a barrier, many rounds: a relay completing the key's one
//     message (and so removing its key item) races two units committing messages of the
//     key; every round the key item stays with the highest sequence committed, and the
//     relay publishes the key's messages in sequence order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox_store.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/cosmos/tests/cosmos_outbox_key_fixture.h"

namespace docket::cosmos::detail {
namespace {

class CosmosOutboxKeyRemovalTest : public CosmosOutboxKeyFixture {
 protected:
  Timestamp now() const { return SystemClock::instance().now(); }

  // Claims the one message the relay may lease now, and checks it is `expected`.
  void claim_exactly(const std::string& expected) const {
    ASSERT_THAT(claim_ids(), ::testing::ElementsAre(expected));
  }
};

TEST_F(CosmosOutboxKeyRemovalTest, TheKeyItemIsGoneOnceNoMessageOfItsKeyIsPendingOrParked) {
  const std::string first = produce("order-10");
  const std::string second = produce("order-10");
  EXPECT_EQ(last_sequence("order-10"), sequence_of(second));
  claim_exactly(first);
  ASSERT_TRUE(store_->complete(first, "relay", now()));
  EXPECT_EQ(last_sequence("order-10"), sequence_of(second)) << "removed while one is pending";
  claim_exactly(second);
  ASSERT_TRUE(store_->complete(second, "relay", now()));
  EXPECT_EQ(last_sequence("order-10"), -1) << "the key's last message completed";

  const std::string cancelled = produce("order-11");
  ASSERT_GT(last_sequence("order-11"), 0);
  ASSERT_TRUE(store_->cancel(cancelled, now()));
  EXPECT_EQ(last_sequence("order-11"), -1) << "the key's one message was cancelled";

  // Parked (one attempt allowed), it still holds the key; purged, it does not.
  const std::string parked = produce("order-12");
  claim_exactly(parked);
  ASSERT_TRUE(store_->fail(parked, "relay", {.error = "down", .park = true}));
  ASSERT_EQ(store_->find(parked)->status, OutboxStatus::kParked);
  EXPECT_GT(last_sequence("order-12"), 0) << "removed while a parked message holds the key";
  EXPECT_EQ(store_->purge_parked_batch(now() + std::chrono::hours(1), 10), 1U);
  EXPECT_EQ(last_sequence("order-12"), -1) << "the key's parked message was purged";

  // A key used again after its removal orders as before: a new key item, above.
  const std::string again = produce("order-10");
  EXPECT_GT(sequence_of(again), sequence_of(second));
  EXPECT_EQ(last_sequence("order-10"), sequence_of(again));
}

TEST_F(CosmosOutboxKeyRemovalTest, AUnitThatReadTheKeyItemBeforeItsRemovalDrawsAgainAbove) {
  // The key is new: the first unit's read creates its key item. Between its draw and its
  // batch, a second unit of the key commits, the relay publishes and completes that
  // message, and the key item is removed. Were the batch to write the key item on its
  // absence, the first unit would now commit below a message already published.
  const std::unique_ptr<Unit> first = unit();
  const std::string drawn_first = stage(*first, "order-20");
  std::string overtaking;
  int draws = 0;
  first->on_commit_step([&](CommitStep at) {
    if (at != CommitStep::kDrawn || ++draws != 1) {
      return;
    }
    overtaking = produce("order-20");
    claim_exactly(overtaking);
    ASSERT_TRUE(store_->complete(overtaking, "relay", now()));
    ASSERT_EQ(last_sequence("order-20"), -1) << "the key item was not removed";
  });
  first->commit();
  EXPECT_EQ(draws, 2) << "the batch under a removed key item's etag was not sent again";
  EXPECT_GT(sequence_of(drawn_first), sequence_of(overtaking))
      << "a message committed below one of its key already published";
  EXPECT_EQ(last_sequence("order-20"), sequence_of(drawn_first));
  claim_exactly(drawn_first);
}

TEST_F(CosmosOutboxKeyRemovalTest, AUnitWhoseBatchFailsLeavesNoKeyItemItsReadCreated) {
  store_->migrate();  // the container, before a unit writes in it without a message
  const TenantScope acme{TenantId(std::string(kKeyFixtureTenant))};
  const std::unique_ptr<Unit> before = unit();
  before->create("app-taken", {{"n", 1}});
  before->commit();
  // The key is new, so the commit's read creates its key item; the batch then fails on
  // the application's create of an item that exists.
  const std::unique_ptr<Unit> failing = unit();
  failing->create("app-taken", {{"n", 2}});
  const std::string never = stage(*failing, "order-40");
  EXPECT_THROW(failing->commit(), UniqueViolationError);
  EXPECT_FALSE(store_->find(never).has_value());
  EXPECT_EQ(last_sequence("order-40"), -1) << "the failed unit left its key item";
}

TEST_F(CosmosOutboxKeyRemovalTest, RemovalsRacingCommitsOfTheKeyKeepItsItemAndOrder) {
  constexpr int kRounds = 100;
  const std::string key = "order-30";
  std::string leased = produce(key);
  claim_exactly(leased);
  for (int round = 0; round < kRounds; ++round) {
    std::barrier start(3);
    std::string committed[2];
    std::thread relay([&] {
      start.arrive_and_wait();
      EXPECT_TRUE(store_->complete(leased, "relay", now()));  // the key's one message
    });
    std::vector<std::thread> producers;
    for (int p = 0; p < 2; ++p) {
      producers.emplace_back([&, p] {
        start.arrive_and_wait();
        committed[p] = produce(key);
      });
    }
    relay.join();
    for (std::thread& producer : producers) {
      producer.join();
    }
    const std::int64_t low = std::min(sequence_of(committed[0]), sequence_of(committed[1]));
    const std::int64_t high = std::max(sequence_of(committed[0]), sequence_of(committed[1]));
    ASSERT_GT(low, sequence_of(leased)) << "round " << round;
    ASSERT_EQ(last_sequence(key), high)
        << "round " << round << ": the key item does not hold the highest sequence committed";
    // The relay publishes the lower one first, and only it.
    const std::string& first = sequence_of(committed[0]) == low ? committed[0] : committed[1];
    const std::string& second = &first == &committed[0] ? committed[1] : committed[0];
    claim_exactly(first);
    ASSERT_TRUE(store_->complete(first, "relay", now()));
    claim_exactly(second);
    leased = second;
  }
  ASSERT_TRUE(store_->complete(leased, "relay", now()));
  EXPECT_EQ(last_sequence(key), -1);
}

}  // namespace
}  // namespace docket::cosmos::detail
