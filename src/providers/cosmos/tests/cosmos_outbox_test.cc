// The Cosmos DB outbox's own cases against the test server, beside its conformance suite:
// a message a handler stages is an item of the tenant's partition in the same batch as
// the handler's write and the dedup item, so a batch that fails writes none of them;
// sequences are drawn when a unit commits, so they follow commit order across
// partitions; a producer's unit refuses the operation past the batch's 100 and an item
// over 2 MB; and the relay's claim reads the pending messages only, never the done or
// parked ones beside them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/cosmos/transaction.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;

struct Shipped {
  std::string order;
};
void from_json(const nlohmann::json& j, Shipped& shipped) {
  j.at("order").get_to(shipped.order);
}

Envelope shipped(std::string message_id, std::string order) {
  Envelope envelope;
  envelope.message_id = std::move(message_id);
  envelope.event_type = "shipped";
  envelope.payload = nlohmann::json{{"order", std::move(order)}}.dump();
  envelope.occurred_at = Timestamp(std::chrono::seconds(1'700'000'000));
  return envelope;
}

class CosmosOutboxTest : public ::testing::Test {
 protected:
  CosmosOutboxTest()
      : inbox_(docket::open_inbox_store(database_.url(), SystemClock::instance())),
        store_(docket::open_outbox_store(database_.url(), SystemClock::instance())),
        outbox_(*store_),
        client_(parse_store_url(database_.url())),
        container_(client_.url().container(kInboxContainerBase)) {}

  // A dispatcher whose handler writes the order item and stages "invoice-due" for it.
  InboxDispatcher invoicing() {
    HandlerRegistry handlers;
    handlers.on<Shipped>("shipped",
                         [this](const Shipped& s, cosmos::Transaction& tx, HandlerContext&) {
                           tx.create("order:" + s.order, {{"state", "shipped"}});
                           outbox_.stage(tx, {.event_type = "invoice-due", .payload = s.order});
                         });
    return InboxDispatcher(*inbox_, InboxOptions("billing"), std::move(handlers));
  }
  std::optional<ReadItem> item(std::string_view id, std::string_view pk) const {
    return read_item(client_, {.container = container_, .id = id, .partition_key = pk});
  }
  // Commits one message through a producer's own unit of work; its id.
  std::string produce(const OutboxMessage& message) {
    auto unit = store_->begin();
    const Uuid id = outbox_.stage(unit->handler_transaction(), message);
    unit->commit();
    return id.to_string();
  }

  test_support::CosmosDatabase database_;
  std::unique_ptr<InboxStore> inbox_;
  std::unique_ptr<OutboxStore> store_;
  Outbox outbox_;
  Client client_;
  std::string container_;
};

TEST_F(CosmosOutboxTest, AHandlersMessageIsAnItemOfTheTenantsPartitionInTheSameBatch) {
  const InboxDispatcher inbox = invoicing();
  const TenantScope acme(TenantId("acme"));
  ASSERT_EQ(inbox.dispatch(shipped("m-1", "o-1")), DispatchOutcome::kProcessed);
  const std::vector<OutboxRecord> feed = store_->read_feed(0, 10);
  ASSERT_EQ(feed.size(), 1U);
  EXPECT_EQ(feed[0].payload, "o-1");
  EXPECT_EQ(feed[0].tenant, "acme");
  EXPECT_GT(feed[0].sequence, 0);
  const std::optional<ReadItem> message = item(feed[0].id, "acme");
  ASSERT_TRUE(message.has_value()) << "the message is not in the tenant's partition";
  EXPECT_EQ(message->body["docketTable"], "docket_outbox");
  EXPECT_EQ(message->body["pendingSequence"], feed[0].sequence);
  // A redelivery is a duplicate: no second order, no second message.
  EXPECT_EQ(inbox.dispatch(shipped("m-1", "o-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(store_->read_feed(0, 10).size(), 1U);
}

TEST_F(CosmosOutboxTest, ABatchThatFailsWritesNeitherTheMessageNorTheHandlersItems) {
  const InboxDispatcher inbox = invoicing();
  const TenantScope acme(TenantId("acme"));
  // The order exists already, so the handler's create fails the batch at commit.
  store_->migrate();
  upsert_item(client_, {.container = container_, .id = "order:o-2", .partition_key = "acme"},
              {{"id", "order:o-2"}, {"pk", "acme"}, {"state", "placed"}});
  EXPECT_THROW(inbox.dispatch(shipped("m-2", "o-2")), UniqueViolationError);
  EXPECT_TRUE(store_->read_feed(0, 10).empty());
  EXPECT_EQ(item("order:o-2", "acme")->body["state"], "placed");
  EXPECT_FALSE(inbox_->is_recorded(DedupKey{"acme", "billing", "m-2"}));
  // The numbers that batch drew are a gap: the next message still commits, after it.
  const std::string next = produce({.event_type = "T"});
  ASSERT_TRUE(store_->find(next).has_value());
  EXPECT_GE(store_->find(next)->sequence, 1);
}

TEST_F(CosmosOutboxTest, SequencesFollowCommitOrderAcrossPartitions) {
  // Staged first in tenant a's partition, committed second: numbered second.
  std::unique_ptr<UnitOfWork> first;
  Uuid staged_first;
  {
    const TenantScope a(TenantId("a"));
    first = store_->begin();
    staged_first = outbox_.stage(first->handler_transaction(), {.event_type = "T"});
  }
  std::string committed_first;
  {
    const TenantScope b(TenantId("b"));
    committed_first = produce({.event_type = "T"});
  }
  first->commit();
  const std::vector<OutboxRecord> feed = store_->read_feed(0, 10);
  ASSERT_EQ(feed.size(), 2U);
  EXPECT_EQ(feed[0].id, committed_first);
  EXPECT_EQ(feed[0].tenant, "b");
  EXPECT_EQ(feed[1].id, staged_first.to_string());
  EXPECT_EQ(feed[1].tenant, "a");
  EXPECT_TRUE(item(staged_first.to_string(), "a").has_value());
  EXPECT_TRUE(item(committed_first, "b").has_value());
}

TEST_F(CosmosOutboxTest, AProducersUnitRefusesTheOperationPastOneBatch) {
  auto unit = store_->begin();
  auto& tx = unit->transaction<cosmos::Transaction>();
  for (int i = 0; i < 100; ++i) {
    tx.create("order:" + std::to_string(i), nlohmann::json::object());
  }
  try {
    outbox_.stage(tx, {.event_type = "T"});
    FAIL() << "a 101st operation was staged";
  } catch (const CommitLimitError& error) {
    EXPECT_THAT(error.what(), HasSubstr("100"));
  }
  EXPECT_TRUE(store_->read_feed(0, 10).empty());
}

TEST_F(CosmosOutboxTest, AMessageOverAnItemsTwoMegabytesIsRefusedWhenStaged) {
  auto unit = store_->begin();
  auto& tx = unit->transaction<cosmos::Transaction>();
  tx.create("order:big", nlohmann::json::object());
  try {
    // Base64 makes 1.6 MB of payload an item over 2 MB.
    outbox_.stage(tx, {.event_type = "T", .payload = std::string(1'600'000, 'x')});
    FAIL() << "an item over 2 MB was staged";
  } catch (const InvalidInputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("Cosmos DB's 2 MB limit"));
    EXPECT_THAT(error.what(), HasSubstr("Cosmos DB outbox"));
  }
  unit->commit();  // the order alone: the refused message staged nothing
  EXPECT_TRUE(store_->read_feed(0, 10).empty());
  EXPECT_TRUE(item("order:big", TenantId::untenanted().value()).has_value());
}

TEST_F(CosmosOutboxTest, ClaimReadsThePendingMessagesOnlyNeverTheDoneOrParkedOnes) {
  // A done message and a parked one, each rewritten so that reading it as a message
  // fails: a claim that read either would throw.
  const std::string done = produce({.event_type = "T"});
  const std::string parked = produce({.event_type = "T"});
  const Timestamp now = SystemClock::instance().now();
  ASSERT_EQ(store_->claim("relay", now, now + std::chrono::minutes(1), 10).size(), 2U);
  ASSERT_TRUE(store_->complete(done, "relay", now));
  ASSERT_TRUE(store_->fail(parked, "relay", {.error = "refused", .park = true}));
  for (const std::string& id : {done, parked}) {
    const std::string pk = TenantId::untenanted().value();
    nlohmann::json body = item(id, pk)->body;
    body["payload"] = 42;  // no base64 text: unreadable as a message
    upsert_item(client_, {.container = container_, .id = id, .partition_key = pk}, body);
  }
  EXPECT_THROW(store_->read_feed(0, 10), InfrastructureError);  // the feed reads them
  const std::string pending = produce({.event_type = "T"});
  const Timestamp later = SystemClock::instance().now();
  const std::vector<OutboxRecord> claimed =
      store_->claim("relay-2", later, later + std::chrono::minutes(1), 10);
  ASSERT_EQ(claimed.size(), 1U);
  EXPECT_EQ(claimed[0].id, pending);
}

}  // namespace
}  // namespace docket::cosmos::detail
