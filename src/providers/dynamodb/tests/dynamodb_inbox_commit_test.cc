// The DynamoDB inbox's commit against DynamoDB Local: a cancelled TransactWriteItems is
// read by the reason at each action's index, so that a duplicate (the dedup item's
// condition) is told apart from the handler's own failed condition or taken key, and
// nothing of a cancelled unit of work is written.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "docket/core/error.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/spi/inbox_unit.h"
#include "dynamodb_inbox_fixture.h"

namespace docket::dynamodb::detail {
namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

InboxRecord record(std::string message_id) {
  return InboxRecord{.key = {"acme", "billing", std::move(message_id)},
                     .event_type = "note",
                     .occurred_at = Timestamp(std::chrono::seconds(1'700'000'000)),
                     .source = std::nullopt,
                     .causation_id = std::nullopt,
                     .correlation_id = std::nullopt};
}

class DynamoDbInboxCommitTest : public DynamoDbInboxTest {};

TEST_F(DynamoDbInboxCommitTest, ADuplicateIsTheDedupItemsCancellationReason) {
  auto first = spi::InboxStoreAccess::begin(*store_);
  auto second = spi::InboxStoreAccess::begin(*store_);
  ASSERT_TRUE(first->try_record(record("m-1")));
  ASSERT_TRUE(second->try_record(record("m-1"))) << "nothing is committed yet";
  dynamic_cast<Transaction&>(first->handler_transaction()).insert(orders_, order("a"));
  dynamic_cast<Transaction&>(second->handler_transaction()).insert(orders_, order("b"));
  first->commit();
  try {
    second->commit();
    FAIL() << "the second commit of one message must be refused";
  } catch (const UniqueViolationError& e) {
    EXPECT_EQ(e.table(), tables_.prefix() + std::string(kInboxMessagesTable));
    EXPECT_TRUE(contains(e.what(), "recorded already")) << e.what();
    EXPECT_TRUE(contains(e.what(), "nothing of the unit of work was written")) << e.what();
  }
  EXPECT_TRUE(store_->is_recorded(record("m-1").key));
  EXPECT_EQ(orders(), 1u) << "the duplicate's own write went with it";
  EXPECT_EQ(dedup_items(), 1u);
}

TEST_F(DynamoDbInboxCommitTest, AtCommitTheDedupReasonWinsOverTheHandlersTakenKey) {
  std::atomic<int> runs = 0;
  const auto inbox = dispatcher(
      [&](const Envelope&, Transaction& tx) {
        ++runs;
        tx.insert(orders_, order("o-1"));  // a redelivery fails this condition too
      },
      DedupCheck::kAtCommit);
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kProcessed);
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(runs.load(), 2) << "at commit, a duplicate's handlers run and their writes go";
  EXPECT_EQ(orders(), 1u);
  EXPECT_EQ(dedup_items(), 1u);
}

TEST_F(DynamoDbInboxCommitTest, AHandlersFailedConditionCheckPropagatesAndIsNoDuplicate) {
  const auto inbox = dispatcher([&](const Envelope&, Transaction& tx) {
    tx.insert(orders_, order("a"));
    tx.condition_check(orders_, key("stock-7"),
                       Expression{.text = "attribute_exists(#pk)", .names = {{"#pk", "pk"}}});
  });
  try {
    inbox.dispatch(note("m-1"));
    FAIL() << "the handler's condition must propagate";
  } catch (const ConditionFailedError& e) {
    EXPECT_EQ(e.table(), orders_);
    EXPECT_TRUE(contains(e.what(), "ConditionCheck of")) << e.what();
    EXPECT_TRUE(contains(e.what(), "stock-7")) << e.what();
    EXPECT_TRUE(contains(e.what(), "'attribute_exists(#pk)' did not hold")) << e.what();
  }
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_items(), 0u);
  EXPECT_FALSE(store_->is_recorded(record("m-1").key));
}

TEST_F(DynamoDbInboxCommitTest, AHandlersInsertOfATakenKeyIsItsOwnUniqueViolation) {
  const auto inbox =
      dispatcher([&](const Envelope&, Transaction& tx) { tx.insert(orders_, order("same")); });
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kProcessed);
  try {
    inbox.dispatch(note("m-2"));
    FAIL() << "the taken key must propagate";
  } catch (const UniqueViolationError& e) {
    EXPECT_EQ(e.table(), orders_);
    EXPECT_TRUE(contains(e.what(), "holds an item with that key already")) << e.what();
  }
  EXPECT_EQ(dedup_items(), 1u);
  EXPECT_EQ(orders(), 1u);
}

TEST_F(DynamoDbInboxCommitTest, UpdateAndDeleteApplyWithTheirConditions) {
  int step = 0;
  const auto inbox = dispatcher([&](const Envelope&, Transaction& tx) {
    if (step == 0) {
      tx.put(orders_, order("a", "v1"));
    } else if (step == 1) {
      tx.update(orders_, key("a"),
                Expression{.text = "SET #payload = :next",
                           .names = {{"#payload", "payload"}},
                           .values = {{":next", {{"S", "v2"}}}}},
                Expression{.text = "#payload = :was",
                           .names = {{"#payload", "payload"}},
                           .values = {{":was", {{"S", "v1"}}}}});
    } else {
      tx.remove(orders_, key("a"),
                Expression{.text = "#payload = :was",
                           .names = {{"#payload", "payload"}},
                           .values = {{":was", {{"S", "v2"}}}}});
    }
  });
  EXPECT_EQ(inbox.dispatch(note("m-0")), DispatchOutcome::kProcessed);
  step = 1;
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kProcessed);
  const Response read =
      client_.call({.operation = "GetItem", .table = orders_, .replay = Replay::kSafe},
                   {{"TableName", orders_}, {"Key", key("a")}, {"ConsistentRead", true}});
  EXPECT_EQ(read.body().at("Item").at("payload").at("S"), "v2");
  step = 2;
  EXPECT_EQ(inbox.dispatch(note("m-2")), DispatchOutcome::kProcessed);
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_items(), 3u);
}

// The handler of docket/dynamodb/transaction.h's example, as written there.
TEST_F(DynamoDbInboxCommitTest, TheDocumentedHandlerDecrementsStockOrFailsItsCondition) {
  const std::string stock = tables_.prefix() + "stock";
  ensure_table(client_, {.name = stock,
                         .partition_key = {"sku", KeyType::kString},
                         .sort_key = std::nullopt,
                         .global_indexes = {}});
  client_.call({.operation = "PutItem", .table = stock, .replay = Replay::kSafe},
               {{"TableName", stock}, {"Item", {{"sku", {{"S", "bolt"}}}, {"qty", {{"N", "5"}}}}}});
  const auto inbox = dispatcher([&](const Envelope& envelope, Transaction& tx) {
    const std::string qty = "3";
    tx.insert(orders_, {{"pk", {{"S", envelope.message_id}}}, {"qty", {{"N", qty}}}});
    tx.update(stock, {{"sku", {{"S", "bolt"}}}},
              {.text = "SET #qty = #qty - :n",
               .names = {{"#qty", "qty"}},
               .values = {{":n", {{"N", qty}}}}},
              Expression{.text = "#qty >= :n"});
  });
  EXPECT_EQ(inbox.dispatch(note("o-1")), DispatchOutcome::kProcessed);
  EXPECT_THROW(inbox.dispatch(note("o-2")), ConditionFailedError) << "2 left, 3 wanted";
  const Response left = client_.call(
      {.operation = "GetItem", .table = stock, .replay = Replay::kSafe},
      {{"TableName", stock}, {"Key", {{"sku", {{"S", "bolt"}}}}}, {"ConsistentRead", true}});
  EXPECT_EQ(left.body().at("Item").at("qty").at("N"), "2");
  EXPECT_EQ(orders(), 1u);
  EXPECT_EQ(dedup_items(), 1u);
}

TEST_F(DynamoDbInboxCommitTest, TwoActionsOnOneItemAreRefusedBeforeSending) {
  const auto inbox = dispatcher([&](const Envelope&, Transaction& tx) {
    tx.put(orders_, order("a"));
    tx.remove(orders_, key("a"));
  });
  try {
    inbox.dispatch(note("m-1"));
    FAIL() << "DynamoDB takes one action per item in a transaction";
  } catch (const InvalidInputError& e) {
    EXPECT_TRUE(contains(e.what(), "one action per item")) << e.what();
  }
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_items(), 0u);
}

TEST_F(DynamoDbInboxCommitTest, AWriteThatIsNotTheTablesKeyIsRefusedBeforeSending) {
  const auto inbox = dispatcher([&](const Envelope&, Transaction& tx) {
    tx.insert(orders_, {{"id", {{"S", "no pk"}}}});
  });
  EXPECT_THROW(inbox.dispatch(note("m-1")), InvalidInputError);
  const auto missing = dispatcher([&](const Envelope&, Transaction& tx) {
    tx.insert(tables_.prefix() + "nowhere", order("a"));
  });
  try {
    missing.dispatch(note("m-2"));
    FAIL() << "a table that does not exist must be named";
  } catch (const ConfigurationError& e) {
    EXPECT_TRUE(contains(e.what(), tables_.prefix() + "nowhere")) << e.what();
  }
  EXPECT_EQ(dedup_items(), 0u);
}

}  // namespace
}  // namespace docket::dynamodb::detail
