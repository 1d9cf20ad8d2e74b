// Strict order per ordering key in the DynamoDB outbox (issue 30), against DynamoDB Local.
// DynamoDB Local updates its indexes with the write, so the race the key items close (an
// earlier message of a key not yet in the pending index while a later one is) cannot be
// produced by timing: these tests write the key item as that moment would leave it, with
// the raw client, and show the claim obeys the key item and not the index. They also show
// each change that ends a message's hold (complete, skip, cancel, purge) releases its
// sequence in the same transaction, a refused one releases nothing, a parked message
// keeps its key, the order guard draws again, and a key's limit refuses a unit whole.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/dynamodb/transaction.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"
#include "providers/dynamodb/dynamodb_sequence_counter.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb::detail {
namespace dynamodb_outbox_key_order_test {

using std::chrono::seconds;

class DynamoDbOutboxKeyOrderTest : public ::testing::Test {
 protected:
  DynamoDbOutboxKeyOrderTest() { store_->migrate(); }

  // Stages one message of each key of `keys` (nullopt: no key) in one committed unit;
  // returns their ids in staging order.
  std::vector<std::string> stage(const std::vector<std::optional<std::string>>& keys) {
    auto unit = store_->begin();
    std::vector<std::string> ids;
    for (const auto& key : keys) {
      ids.push_back(outbox_
                        .stage(unit->handler_transaction(),
                               {.event_type = "Placed", .payload = "{}", .ordering_key = key})
                        .to_string());
    }
    unit->commit();
    return ids;
  }
  std::string stage_one(const std::string& key) { return stage({key}).front(); }

  std::int64_t sequence_of(const std::string& id) { return store_->find(id).value().sequence; }

  nlohmann::json key_item(const std::string& key) const {
    return outbox::key_item_key(TenantScope::current_or_untenanted().value(), key);
  }
  // The key item as stored (null when there is none), read consistently.
  nlohmann::json read_key_item(const std::string& key) const {
    const Response response =
        client_.call({.operation = "GetItem", .table = table_, .replay = Replay::kSafe},
                     {{"TableName", table_}, {"Key", key_item(key)}, {"ConsistentRead", true}});
    return response.body().value("Item", nlohmann::json());
  }
  std::vector<std::int64_t> held(const std::string& key) const {
    const nlohmann::json item = read_key_item(key);
    return item.is_null() ? std::vector<std::int64_t>{} : outbox::held_of(item, "test");
  }
  // ADD or DELETE `sequence` in the key's held set, as another unit's commit would.
  void raw_held(const std::string& key, std::string_view operation, std::int64_t sequence) const {
    client_.call({.operation = "UpdateItem", .table = table_, .replay = Replay::kSafe},
                 {{"TableName", table_},
                  {"Key", key_item(key)},
                  {"UpdateExpression", std::string(operation) + " #held :s"},
                  {"ExpressionAttributeNames", {{"#held", "held"}}},
                  {"ExpressionAttributeValues", {{":s", {{"NS", {std::to_string(sequence)}}}}}}});
  }

  std::vector<std::string> claim_ids(std::size_t limit = 10) {
    const Timestamp now = clock_.now();
    std::vector<std::string> ids;
    for (const OutboxRecord& r : store_->claim("relay", now, now + seconds(60), limit)) {
      ids.push_back(r.id);
    }
    return ids;
  }

  test_support::DynamoDbTables tables_;
  Client client_{parse_store_url(tables_.url())};
  std::string table_ = tables_.prefix() + "docket_outbox";
  SystemClock clock_;
  std::unique_ptr<OutboxStore> store_ = open_outbox_store(tables_.url(), clock_);
  Outbox outbox_{*store_, clock_};
};

// The mechanism: the pending index shows nothing earlier of key K, yet the key item
// holds a lower sequence (a message committed whose index entry has not propagated).
// Without the key item read, the later message would be leased here.
TEST_F(DynamoDbOutboxKeyOrderTest, ALowerSequenceInTheKeyItemHoldsTheKeysLaterMessage) {
  const std::int64_t earlier = draw_sequences(client_, outbox::sequence_counter(table_), 1, "test");
  raw_held("K", "ADD", earlier);
  const std::string later = stage_one("K");
  const std::string other = stage_one("L");
  EXPECT_GT(sequence_of(later), earlier);
  EXPECT_EQ(claim_ids(), std::vector<std::string>{other});  // L is not held back by K

  raw_held("K", "DELETE", earlier);  // the earlier message completed
  EXPECT_EQ(claim_ids(), std::vector<std::string>{later});
}

TEST_F(DynamoDbOutboxKeyOrderTest, StagingAddsEachKeysSequencesInTheSameCommit) {
  const std::vector<std::string> ids = stage({"K", std::nullopt, "K", "L"});
  EXPECT_EQ(held("K"), (std::vector<std::int64_t>{sequence_of(ids[0]), sequence_of(ids[2])}));
  EXPECT_EQ(held("L"), std::vector<std::int64_t>{sequence_of(ids[3])});
  EXPECT_EQ(ItemReader(read_key_item("K"), "test").number("last_held"), sequence_of(ids[2]));
}

TEST_F(DynamoDbOutboxKeyOrderTest, AUnitDestroyedUncommittedHoldsNothing) {
  {
    auto unit = store_->begin();
    outbox_.stage(unit->handler_transaction(), {.event_type = "Placed", .ordering_key = "K"});
  }
  EXPECT_TRUE(read_key_item("K").is_null());
}

TEST_F(DynamoDbOutboxKeyOrderTest, CompleteReleasesTheSequenceAndARefusedCompleteReleasesNone) {
  const std::vector<std::string> ids = stage({"K", "L"});
  ASSERT_EQ(claim_ids().size(), 2u);
  const Timestamp now = clock_.now();
  // A relay whose lease was lost: its complete is refused, and K keeps its sequence.
  EXPECT_FALSE(store_->complete(ids[0], "another-relay", now));
  EXPECT_EQ(held("K"), std::vector<std::int64_t>{sequence_of(ids[0])});
  // Completed by another process than the one that leased it (which knows neither
  // message): read, then released with its complete.
  const auto other = open_outbox_store(tables_.url(), clock_);
  EXPECT_TRUE(other->complete(ids[1], "relay", now));
  EXPECT_TRUE(held("L").empty());
  EXPECT_EQ(held("K"), std::vector<std::int64_t>{sequence_of(ids[0])});
  // The leasing store's complete of both: the one still leased is released.
  const std::string both[] = {ids[0], ids[1]};
  EXPECT_EQ(store_->complete_all(both, "relay", now), 1u);
  EXPECT_TRUE(held("K").empty());
  const std::string again[] = {ids[0], ids[1]};
  EXPECT_EQ(store_->complete_all(again, "relay", now), 0u);
}

TEST_F(DynamoDbOutboxKeyOrderTest, AParkedMessageHoldsItsKeyThroughReplayUntilSkipped) {
  const std::vector<std::string> first = stage({"K"});
  const std::vector<std::string> second = stage({"K"});
  ASSERT_EQ(claim_ids(), first);
  ASSERT_TRUE(store_->fail(first[0], "relay", {.error = "down", .park = true}));
  EXPECT_TRUE(claim_ids().empty());
  EXPECT_EQ(held("K"), (std::vector<std::int64_t>{sequence_of(first[0]), sequence_of(second[0])}));

  ASSERT_TRUE(store_->replay(first[0], clock_.now()));
  EXPECT_EQ(held("K").size(), 2u);
  ASSERT_EQ(claim_ids(), first);
  ASSERT_TRUE(store_->fail(first[0], "relay", {.error = "down", .park = true}));

  ASSERT_TRUE(store_->skip(first[0], clock_.now()));
  EXPECT_EQ(held("K"), std::vector<std::int64_t>{sequence_of(second[0])});
  EXPECT_EQ(claim_ids(), second);
}

TEST_F(DynamoDbOutboxKeyOrderTest, CancelAndPurgeOfAParkedMessageRelease) {
  const std::vector<std::string> ids = stage({"K", "L"});
  ASSERT_TRUE(store_->cancel(ids[0], clock_.now()));
  EXPECT_TRUE(held("K").empty());

  ASSERT_EQ(claim_ids(), std::vector<std::string>{ids[1]});
  ASSERT_TRUE(store_->fail(ids[1], "relay", {.error = "down", .park = true}));
  EXPECT_EQ(held("L").size(), 1u);
  EXPECT_EQ(store_->purge_parked_batch(clock_.now() + seconds(60), 10), 1u);
  EXPECT_TRUE(held("L").empty());
}

TEST_F(DynamoDbOutboxKeyOrderTest, PurgingDoneMessagesRemovesTheirEmptiedKeyItems) {
  const std::vector<std::string> ids = stage({"K", "L"});
  stage({"L"});  // still pending: L's key item must stay
  ASSERT_EQ(claim_ids().size(), 2u);
  const Timestamp now = clock_.now();
  ASSERT_EQ(store_->complete_all(ids, "relay", now), 2u);
  EXPECT_FALSE(read_key_item("K").is_null());  // emptied: id and last_held
  EXPECT_EQ(store_->purge_done_batch(now + seconds(1), 10), 2u);
  EXPECT_TRUE(read_key_item("K").is_null());
  EXPECT_EQ(held("L").size(), 1u);
}

// A unit that drew before another of its key but committed after it draws again, so
// per key commit order is sequence order: here the key item's last_held is the next
// number the counter hands out, as a unit drawing it and committing first leaves it.
TEST_F(DynamoDbOutboxKeyOrderTest, AUnitOvertakenByALaterOneOfItsKeyDrawsAgain) {
  const std::int64_t drawn = draw_sequences(client_, outbox::sequence_counter(table_), 1, "test");
  client_.call({.operation = "PutItem", .table = table_, .replay = Replay::kSafe},
               {{"TableName", table_}, {"Item", [&] {
                                          nlohmann::json item = key_item("K");
                                          item["last_held"] = number_value(drawn + 1);
                                          return item;
                                        }()}});
  const std::string id = stage_one("K");
  EXPECT_EQ(sequence_of(id), drawn + 2);  // drawn + 1 was refused, and is a gap
  EXPECT_EQ(held("K"), std::vector<std::int64_t>{drawn + 2});
}

// The key item at its limit (the largest sequences, 19 digits: the item stays under 400
// KB on the server) refuses a unit that adds to it, whole, with a clear error.
TEST_F(DynamoDbOutboxKeyOrderTest, AKeyAtItsLimitRefusesTheUnitAndNothingIsWritten) {
  nlohmann::json numbers = nlohmann::json::array();
  for (std::size_t i = 0; i < outbox::kMaxHeldPerKey; ++i) {
    numbers.push_back(std::to_string(9'000'000'000'000'000'000LL + static_cast<std::int64_t>(i)));
  }
  nlohmann::json item = key_item("K");
  item["held"] = {{"NS", std::move(numbers)}};
  client_.call({.operation = "PutItem", .table = table_, .replay = Replay::kSafe},
               {{"TableName", table_}, {"Item", std::move(item)}});

  auto unit = store_->begin();
  outbox_.stage(unit->handler_transaction(), {.event_type = "Placed", .ordering_key = "L"});
  outbox_.stage(unit->handler_transaction(), {.event_type = "Placed", .ordering_key = "K"});
  try {
    unit->commit();
    FAIL() << "a key at its limit must refuse the unit";
  } catch (const InfrastructureError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("ordering key 'K'"), std::string::npos) << message;
    EXPECT_NE(message.find("37143"), std::string::npos) << message;
    EXPECT_NE(message.find("nothing of the unit of work was written"), std::string::npos)
        << message;
  }
  EXPECT_TRUE(store_->read_feed(0, 10).empty());
  EXPECT_TRUE(read_key_item("L").is_null());
}

// Producers staging one key from several threads at once all commit (a conflict on the
// key item is sent again, an overtaken unit draws again), and the key item then holds
// every message's sequence, which the relay hands out one at a time in that order.
TEST_F(DynamoDbOutboxKeyOrderTest, ConcurrentProducersOfOneKeyAllCommitAndAreHeldInOrder) {
  constexpr int kThreads = 4;
  constexpr int kEach = 5;
  std::vector<std::thread> producers;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        try {
          stage({"K"});
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  }
  for (std::thread& producer : producers) {
    producer.join();
  }
  ASSERT_EQ(failures.load(), 0);
  std::vector<std::int64_t> staged;
  for (const OutboxRecord& r : store_->read_feed(0, 100)) {
    staged.push_back(r.sequence);
  }
  ASSERT_EQ(staged.size(), static_cast<std::size_t>(kThreads * kEach));
  EXPECT_EQ(held("K"), staged);
  for (const std::int64_t sequence : staged) {
    const std::vector<std::string> claimed = claim_ids();
    ASSERT_EQ(claimed.size(), 1u);
    EXPECT_EQ(sequence_of(claimed[0]), sequence);
    ASSERT_TRUE(store_->complete(claimed[0], "relay", clock_.now()));
  }
  EXPECT_TRUE(held("K").empty());
}

// The key item's id names the tenant and the key apart, whatever either holds.
TEST(DynamoDbOutboxKeyItem, TheIdTellsEveryTenantAndKeyApart) {
  EXPECT_NE(outbox::key_item_key("a:b", "c"), outbox::key_item_key("a", "b:c"));
  EXPECT_NE(outbox::key_item_key("1:a", "b"), outbox::key_item_key("1", "a:b"));
  EXPECT_EQ(outbox::key_item_key("acme", "order-7").at("id").at("S"),
            "docket:outbox:key:t:acme:order-7");
}

// Each distinct key of a unit is one more action: 50 messages of 50 keys fill the 100,
// and the 51st key is refused at staging, as any write past the limit.
TEST_F(DynamoDbOutboxKeyOrderTest, EachKeyOfAUnitCountsTowardItsHundredActions) {
  auto unit = store_->begin();
  for (int i = 0; i < 50; ++i) {
    outbox_.stage(unit->handler_transaction(),
                  {.event_type = "Placed", .ordering_key = "k" + std::to_string(i)});
  }
  EXPECT_THROW(
      outbox_.stage(unit->handler_transaction(), {.event_type = "Placed", .ordering_key = "k50"}),
      CommitLimitError);
  unit->commit();  // the 50 staged before, whole
  EXPECT_EQ(store_->read_feed(0, 100).size(), 50u);
  EXPECT_EQ(held("k49").size(), 1u);
  EXPECT_TRUE(read_key_item("k50").is_null());
}

}  // namespace dynamodb_outbox_key_order_test
}  // namespace docket::dynamodb::detail
