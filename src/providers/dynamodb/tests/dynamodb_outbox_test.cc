// The DynamoDB outbox against DynamoDB Local: a message staged by an inbox handler goes
// in the one TransactWriteItems of the handler's writes and the dedup item (whatever
// cancels one cancels all three); the status indexes hold exactly the items of their
// status; and the relay finds its work through the pending index alone, so an item the
// index does not hold is never claimed (it would be, were the table scanned).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
#include "docket/transports/in_process_transport.h"
#include "dynamodb_inbox_fixture.h"
#include "providers/dynamodb/dynamodb_outbox_table.h"

namespace docket::dynamodb::detail {
namespace dynamodb_outbox_test {

class DynamoDbOutboxTest : public DynamoDbInboxTest {
 protected:
  DynamoDbOutboxTest() { outbox_store_->migrate(); }

  // Stages one message in a committed unit of work of the outbox store; returns its id.
  std::string stage(std::optional<Uuid> id = std::nullopt) {
    auto unit = outbox_store_->begin();
    const std::string staged =
        outbox_.stage(unit->handler_transaction(), {.event_type = "Shipped", .id = id}).to_string();
    unit->commit();
    return staged;
  }

  // The ids the index holds, read shard by shard with its own key condition.
  std::set<std::string> index_ids(std::string_view index, std::string_view shard) const {
    std::set<std::string> ids;
    const std::string condition = "#" + std::string(shard) + " = :shard";
    for (std::int64_t s = 0; s < outbox::kShards; ++s) {
      Pager pager = Pager::query(
          client_, {{"TableName", outbox_table_},
                    {"IndexName", index},
                    {"KeyConditionExpression", condition},
                    {"ExpressionAttributeNames", {{"#" + std::string(shard), std::string(shard)}}},
                    {"ExpressionAttributeValues", {{":shard", {{"N", std::to_string(s)}}}}}});
      while (const auto page = pager.next_page()) {
        for (const auto& item : *page) {
          ids.insert(item.at("id").at("S").get<std::string>());
        }
      }
    }
    return ids;
  }

  std::string outbox_table_ = tables_.prefix() + "docket_outbox";
  std::unique_ptr<OutboxStore> outbox_store_ = open_outbox_store(tables_.url(), clock_);
  Outbox outbox_{*outbox_store_, clock_};
};

TEST_F(DynamoDbOutboxTest, AHandlersMessageCommitsWithItsWritesAndTheDedupItem) {
  const auto inbox = dispatcher([&](const Envelope&, Transaction& tx) {
    tx.insert(orders_, order("a"));
    outbox_.stage(tx, {.event_type = "Shipped"});
  });
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(orders(), 1u);
  EXPECT_EQ(dedup_items(), 1u);
  const auto feed = outbox_store_->read_feed(0, 10);
  ASSERT_EQ(feed.size(), 1u);
  EXPECT_EQ(feed[0].causation_id, "m-1");
  EXPECT_EQ(feed[0].status, OutboxStatus::kPending);
}

TEST_F(DynamoDbOutboxTest, ATakenMessageIdCancelsTheHandlersWritesAndTheDedupItem) {
  const Uuid taken = Uuid::v7();
  stage(taken);
  const auto inbox = dispatcher([&](const Envelope&, Transaction& tx) {
    tx.insert(orders_, order("a"));
    outbox_.stage(tx, {.event_type = "Shipped", .id = taken});
  });
  try {
    inbox.dispatch(note("m-1"));
    FAIL() << "the taken message id must propagate";
  } catch (const UniqueViolationError& e) {
    EXPECT_EQ(e.table(), outbox_table_);
  }
  EXPECT_EQ(orders(), 0u);  // one transaction: the order did not commit without its message
  EXPECT_EQ(dedup_items(), 0u);
  EXPECT_EQ(outbox_store_->read_feed(0, 10).size(), 1u);
}

TEST_F(DynamoDbOutboxTest, AHandlersFailedConditionLeavesNoMessage) {
  const auto inbox = dispatcher([&](const Envelope&, Transaction& tx) {
    outbox_.stage(tx, {.event_type = "Shipped"});
    tx.condition_check(orders_, key("stock-7"),
                       Expression{.text = "attribute_exists(#pk)", .names = {{"#pk", "pk"}}});
  });
  EXPECT_THROW(inbox.dispatch(note("m-1")), ConditionFailedError);
  EXPECT_TRUE(outbox_store_->read_feed(0, 10).empty());
  EXPECT_EQ(dedup_items(), 0u);
}

// A message over DynamoDB's 400 KB item limit is refused before the commit is sent,
// naming the limit; the handler's write and the dedup item go with it.
TEST_F(DynamoDbOutboxTest, AMessageOverTheItemLimitIsRefusedAndNothingIsWritten) {
  const auto inbox = dispatcher([&](const Envelope&, Transaction& tx) {
    tx.insert(orders_, order("a"));
    outbox_.stage(tx, {.event_type = "Shipped", .payload = std::string(401 * 1024, 'x')});
  });
  try {
    inbox.dispatch(note("m-1"));
    FAIL() << "an item over 400 KB must be refused";
  } catch (const InvalidInputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("400 KB"), std::string::npos) << message;
    EXPECT_NE(message.find("'payload'"), std::string::npos) << message;
    EXPECT_NE(message.find("Nothing was written"), std::string::npos) << message;
  }
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_items(), 0u);
  EXPECT_TRUE(outbox_store_->read_feed(0, 10).empty());
}

TEST_F(DynamoDbOutboxTest, EachStatusIndexHoldsOnlyTheItemsOfItsStatus) {
  const std::string done = stage();
  const std::string parked = stage();
  const std::string pending = stage();
  const Timestamp now = clock_.now();
  ASSERT_EQ(outbox_store_->claim("t", now, now + std::chrono::seconds(30), 2).size(), 2u);
  ASSERT_TRUE(outbox_store_->complete(done, "t", now));
  ASSERT_TRUE(outbox_store_->fail(parked, "t", {.error = "down", .park = true}));

  EXPECT_EQ(index_ids(outbox::kPendingIndex, outbox::kPendingShard),
            std::set<std::string>{pending});
  EXPECT_EQ(index_ids(outbox::kParkedIndex, outbox::kParkedShard), std::set<std::string>{parked});
  EXPECT_EQ(index_ids(outbox::kDoneIndex, outbox::kDoneShard), std::set<std::string>{done});
  EXPECT_EQ(index_ids(outbox::kFeedIndex, outbox::kFeedShard),
            (std::set<std::string>{done, parked, pending}));

  ASSERT_TRUE(outbox_store_->replay(parked, now));
  EXPECT_EQ(index_ids(outbox::kPendingIndex, outbox::kPendingShard),
            (std::set<std::string>{parked, pending}));
  EXPECT_TRUE(index_ids(outbox::kParkedIndex, outbox::kParkedShard).empty());
}

TEST_F(DynamoDbOutboxTest, TheRelayClaimsOnlyWhatThePendingIndexHolds) {
  const std::string staged = stage();
  // A pending message the pending index does not hold: the staged item without its
  // pending_shard, under another id. A relay reading the table would claim it.
  const Response got =
      client_.call({.operation = "GetItem", .table = outbox_table_, .replay = Replay::kSafe},
                   {{"TableName", outbox_table_},
                    {"Key", outbox::message_key(staged)},
                    {"ConsistentRead", true}});
  nlohmann::json hidden = got.body().at("Item");
  const std::string hidden_id = Uuid::v7().to_string();
  hidden["id"] = {{"S", hidden_id}};
  hidden.erase(std::string(outbox::kPendingShard));
  client_.call({.operation = "PutItem", .table = outbox_table_, .replay = Replay::kSafe},
               {{"TableName", outbox_table_}, {"Item", hidden}});

  InProcessTransport transport(10);
  Relay relay(*outbox_store_, transport,
              RelayOptions(RelaySettings{.poll_interval = std::chrono::milliseconds(1),
                                         .batch_size = 10,
                                         .max_attempts = 3,
                                         .lease = std::chrono::seconds(30),
                                         .backoff_base = std::chrono::seconds(1),
                                         .backoff_cap = std::chrono::seconds(60),
                                         .jitter = 0.0}),
              clock_);
  EXPECT_EQ(relay.run_once().published, 1u);
  EXPECT_EQ(relay.run_once().claimed, 0u);
  EXPECT_EQ(outbox_store_->find(staged)->status, OutboxStatus::kDone);
  EXPECT_EQ(outbox_store_->find(hidden_id)->status, OutboxStatus::kPending);  // never seen
  EXPECT_EQ(transport.subscribe({}).next(std::chrono::milliseconds(0))->message.envelope.message_id,
            staged);
}

}  // namespace dynamodb_outbox_test
}  // namespace docket::dynamodb::detail
