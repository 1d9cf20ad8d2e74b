// A unit of work whose one write is an outbox message or a dedup record commits it as
// its own PutItem (not a TransactWriteItems of one action, which costs twice the write
// units), and its failed condition surfaces exactly as the transaction's cancellation
// reason did; a unit of two writes, or of another lone write (whose resend after a lost
// answer needs the transaction's token), keeps its TransactWriteItems. The stores talk to DynamoDB
// Local through a loopback proxy that records the operation of each request
// (dynamodb_recording_proxy.h), so the test sees what went on the wire.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/dynamodb/transaction.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/outbox/outbox.h"
#include "docket/spi/inbox_unit.h"
#include "docket/stores/open_store.h"
#include "document/inbox_note.h"
#include "dynamodb_recording_proxy.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_pager.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/dynamodb_url.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"

namespace docket::dynamodb::detail {
namespace dynamodb_unit_single_write_test {

using Operations = RecordedOperations;

class DynamoDbUnitSingleWriteTest : public ::testing::Test {
 protected:
  DynamoDbUnitSingleWriteTest() {
    outbox_store_->migrate();
    inbox_store_->migrate();
    // First, so that the store has read what it reads once (the table's key schema).
    commit_messages(1);
    proxy_.take();
  }

  // Commits a unit of the outbox store staging `count` messages (the first with `id`).
  void commit_messages(std::size_t count, std::optional<Uuid> id = std::nullopt) {
    auto unit = outbox_store_->begin();
    for (std::size_t i = 0; i < count; ++i) {
      outbox_.stage(unit->handler_transaction(),
                    {.event_type = "Shipped", .id = i == 0 ? id : std::nullopt});
    }
    unit->commit();
  }

  static InboxRecord record(std::string message_id) {
    return InboxRecord{.key = {"acme", "billing", std::move(message_id)},
                       .event_type = "note",
                       .occurred_at = Timestamp(std::chrono::seconds(1'700'000'000)),
                       .source = std::nullopt,
                       .causation_id = std::nullopt,
                       .correlation_id = std::nullopt};
  }

  ManualClock clock_{Timestamp(std::chrono::seconds(1'800'000'000))};
  test_support::DynamoDbTables tables_;
  RecordingProxy proxy_{parse_store_url(tables_.url())};
  std::unique_ptr<OutboxStore> outbox_store_ =
      open_outbox_store(proxy_.url_of(tables_.url()), clock_);
  std::unique_ptr<InboxStore> inbox_store_ = open_inbox_store(proxy_.url_of(tables_.url()), clock_);
  Outbox outbox_{*outbox_store_, clock_};
};

TEST_F(DynamoDbUnitSingleWriteTest, AMessageAloneIsTheCounterDrawAndOnePutItem) {
  commit_messages(1);
  EXPECT_EQ(proxy_.take(), (Operations{"UpdateItem", "PutItem"}));
  EXPECT_EQ(outbox_store_->read_feed(0, 10).size(), 2u);
}

TEST_F(DynamoDbUnitSingleWriteTest, TwoMessagesStayOneTransaction) {
  commit_messages(2);
  EXPECT_EQ(proxy_.take(), (Operations{"UpdateItem", "TransactWriteItems"}));
  EXPECT_EQ(outbox_store_->read_feed(0, 10).size(), 3u);
}

TEST_F(DynamoDbUnitSingleWriteTest, AMessageWhoseIdIsTakenIsTheSameUniqueViolation) {
  const Uuid taken = Uuid::v7();
  commit_messages(1, taken);
  proxy_.take();
  try {
    commit_messages(1, taken);
    FAIL() << "staging a message whose id is taken must be refused";
  } catch (const UniqueViolationError& e) {
    // As the one-action transaction's ConditionalCheckFailed reason of a kInsert put.
    const std::string what = e.what();
    EXPECT_EQ(e.table(), tables_.prefix() + "docket_outbox") << what;
    EXPECT_NE(what.find("Put of"), std::string::npos) << what;
    EXPECT_NE(what.find("holds an item with that key already"), std::string::npos) << what;
    EXPECT_NE(what.find("nothing of the unit of work was written"), std::string::npos) << what;
  }
  EXPECT_EQ(proxy_.take(), (Operations{"UpdateItem", "PutItem"})) << "sent once, not repeated";
  EXPECT_EQ(outbox_store_->read_feed(0, 10).size(), 2u);
}

TEST_F(DynamoDbUnitSingleWriteTest, ADuplicateDedupRecordAloneIsTheSameDuplicate) {
  auto first = spi::InboxStoreAccess::begin(*inbox_store_);
  auto second = spi::InboxStoreAccess::begin(*inbox_store_);
  ASSERT_TRUE(first->try_record(record("m-1")));
  ASSERT_TRUE(second->try_record(record("m-1"))) << "nothing is committed yet";
  proxy_.take();
  first->commit();
  EXPECT_EQ(proxy_.take(), (Operations{"PutItem"})) << "a handler that wrote nothing";
  try {
    second->commit();
    FAIL() << "the second commit of one message must be refused";
  } catch (const DuplicateDeliveryError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.table(), tables_.prefix() + std::string(kInboxMessagesTable));
    EXPECT_NE(what.find("recorded already"), std::string::npos) << what;
    EXPECT_NE(what.find("nothing of the unit of work was written"), std::string::npos) << what;
  }
  EXPECT_EQ(proxy_.take(), (Operations{"PutItem"}));
  EXPECT_TRUE(inbox_store_->is_recorded(record("m-1").key));
}

// An applied message put whose answer was lost is sent again (Replay::kSafe), and the
// resend's failed condition, finding the very item sent (its sequence drawn for this
// commit alone), is this commit's own write: the commit succeeds, the message once.
TEST_F(DynamoDbUnitSingleWriteTest, AMessagePutResentAfterALostAnswerFindsItsOwnItem) {
  proxy_.lose_next_put_answer();
  commit_messages(1);
  EXPECT_EQ(proxy_.take(), (Operations{"UpdateItem", "PutItem", "PutItem"}));
  EXPECT_EQ(outbox_store_->read_feed(0, 10).size(), 2u);
}

// A lone dedup record carries nothing of this commit alone, so it is sent once: a lost
// answer is an InfrastructureError saying it may have been applied; the redelivery then
// finds the message recorded.
TEST_F(DynamoDbUnitSingleWriteTest, ADedupRecordWhoseAnswerIsLostIsNotSentAgain) {
  auto unit = spi::InboxStoreAccess::begin(*inbox_store_);
  ASSERT_TRUE(unit->try_record(record("m-1")));
  proxy_.take();
  proxy_.lose_next_put_answer();
  try {
    unit->commit();
    FAIL() << "a lost answer must be reported";
  } catch (const InfrastructureError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("may or may not have been applied"), std::string::npos) << what;
  }
  EXPECT_EQ(proxy_.take(), (Operations{"PutItem"}));
  EXPECT_TRUE(inbox_store_->is_recorded(record("m-1").key));
}

// A producer's lone Update stays a TransactWriteItems (a resend of an UpdateItem after a
// lost answer could apply twice; the transaction's token applies it once), with its
// ConditionFailedError and InvalidInputError.
TEST_F(DynamoDbUnitSingleWriteTest, AnUpdateAloneStaysATransactionWithItsErrors) {
  const Client client(parse_store_url(tables_.url()));
  const std::string orders = tables_.prefix() + "orders";
  ensure_table(client, {.name = orders,
                        .partition_key = {"pk", KeyType::kString},
                        .sort_key = std::nullopt,
                        .global_indexes = {}});
  const nlohmann::json key = {{"pk", {{"S", "a"}}}};
  const auto update = [&](std::string text, std::optional<Expression> condition) {
    auto unit = outbox_store_->begin();
    dynamic_cast<Transaction&>(unit->handler_transaction())
        .update(orders, key,
                Expression{.text = std::move(text),
                           .names = {{"#qty", "qty"}},
                           .values = {{":n", {{"N", "1"}}}}},
                std::move(condition));
    unit->commit();
  };
  update("SET #qty = :n", std::nullopt);  // the first reads the table's key schema
  proxy_.take();
  update("ADD #qty :n", Expression{.text = "#qty = :n"});
  EXPECT_EQ(proxy_.take(), (Operations{"TransactWriteItems"}));
  try {
    update("ADD #qty :n", Expression{.text = "#qty = :n"});  // qty is 2 now
    FAIL() << "the condition must fail";
  } catch (const ConditionFailedError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.table(), orders);
    EXPECT_NE(what.find("Update of"), std::string::npos) << what;
    EXPECT_NE(what.find("its condition '#qty = :n' did not hold"), std::string::npos) << what;
    EXPECT_NE(what.find("nothing of the unit of work was written"), std::string::npos) << what;
  }
  try {
    update("SET #qty = :n + :n + ", std::nullopt);
    FAIL() << "DynamoDB must refuse the expression";
  } catch (const InvalidInputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Invalid UpdateExpression"), std::string::npos) << what;
    EXPECT_NE(what.find("refused the request as malformed and wrote nothing"), std::string::npos)
        << what;
  }
  EXPECT_EQ(proxy_.take(), (Operations{"TransactWriteItems", "TransactWriteItems"}))
      << "each sent once";
}

// Eight deliveries of each message at once, dedup at commit and a handler that writes
// nothing: every commit is the dedup record's lone PutItem, and each message is still
// processed exactly once, the others duplicates. (Straight to the server: the proxy
// serves one connection at a time.)
TEST_F(DynamoDbUnitSingleWriteTest, ConcurrentDedupRecordsAloneCommitOncePerMessage) {
  constexpr int kThreads = 8;
  constexpr int kMessages = 40;
  const std::unique_ptr<InboxStore> store = open_inbox_store(tables_.url(), clock_);
  std::atomic<int> processed = 0;
  std::atomic<int> duplicates = 0;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      const InboxDispatcher inbox = document_tests::note_dispatcher<Transaction>(
          *store, [](const Envelope&, Transaction&) {}, DedupCheck::kAtCommit);
      for (int m = 0; m < kMessages; ++m) {
        const DispatchOutcome outcome =
            inbox.dispatch(document_tests::note("m-" + std::to_string(m)));
        (outcome == DispatchOutcome::kProcessed ? processed : duplicates) += 1;
      }
    });
  }
  for (std::thread& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(processed.load(), kMessages);
  EXPECT_EQ(duplicates.load(), (kThreads - 1) * kMessages);
  const Client client(parse_store_url(tables_.url()));
  Pager dedup_items =
      Pager::scan(client, {{"TableName", tables_.prefix() + std::string(kInboxMessagesTable)},
                           {"ConsistentRead", true}});
  std::size_t recorded = 0;
  while (const auto page = dedup_items.next_page()) {
    recorded += page->size();
  }
  EXPECT_EQ(recorded, static_cast<std::size_t>(kMessages)) << "one dedup item a message";
}

}  // namespace dynamodb_unit_single_write_test
}  // namespace docket::dynamodb::detail
