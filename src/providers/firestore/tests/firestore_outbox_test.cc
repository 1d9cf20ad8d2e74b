// The Firestore outbox against the emulator, with the inbox: a message a handler stages
// commits in ONE commit with the handler's write and the dedup document, or not at all;
// the sequence counter document is never read as a message; claim pages through pending
// messages that are not due to the due ones behind them.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/outbox_schema.h"
#include "docket/stores/open_store.h"
#include "firestore_inbox_fixture.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_outbox_document.h"

namespace docket::firestore::detail {
namespace {

class FirestoreOutboxTest : public FirestoreInboxTest {
 protected:
  std::unique_ptr<OutboxStore> outbox_store_ = open_outbox_store(collections_.url(), clock_);
  Outbox outbox_{*outbox_store_, clock_};
};

TEST_F(FirestoreOutboxTest, AHandlersMessageCommitsWithItsWriteAndTheDedupDocument) {
  std::string staged;
  bool fail = true;
  const auto inbox = dispatcher([&](const Envelope& envelope, Transaction& tx) {
    tx.create(orders_, envelope.message_id, payload("x"));
    staged = outbox_.stage(tx, {.event_type = "order-shipped", .payload = "{}"}).to_string();
    if (fail) {
      throw std::runtime_error("the handler failed after staging");
    }
  });
  EXPECT_THROW(inbox.dispatch(note("m-1")), std::runtime_error);
  EXPECT_FALSE(outbox_store_->find(staged).has_value()) << "the message went with the unit";
  EXPECT_EQ(orders(), 0u);
  EXPECT_TRUE(outbox_store_->read_feed(0, 10).empty());

  fail = false;
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kProcessed);
  const std::optional<OutboxRecord> message = outbox_store_->find(staged);
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(message->status, OutboxStatus::kPending);
  EXPECT_EQ(message->event_type, "order-shipped");
  EXPECT_EQ(message->sequence, 2) << "the rolled-back unit's sequence is not handed out again";
  EXPECT_EQ(orders(), 1u);
  EXPECT_EQ(dedup_documents(), 1u);
  EXPECT_EQ(inbox.dispatch(note("m-1")), DispatchOutcome::kSkippedDuplicate);
  EXPECT_EQ(outbox_store_->read_feed(0, 10).size(), 1u) << "a duplicate stages nothing";
}

// A message over Firestore's 1 MiB document limit is refused before the commit is sent,
// naming the limit; the handler's write and the dedup document go with it.
TEST_F(FirestoreOutboxTest, AMessageOverTheDocumentLimitIsRefusedAndNothingIsWritten) {
  const auto inbox = dispatcher([&](const Envelope& envelope, Transaction& tx) {
    tx.create(orders_, envelope.message_id, payload("x"));
    outbox_.stage(tx,
                  {.event_type = "order-shipped", .payload = std::string(kMaxDocumentBytes, 'x')});
  });
  try {
    inbox.dispatch(note("m-1"));
    FAIL() << "a document over 1 MiB must be refused";
  } catch (const InvalidInputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("over Firestore's limit of 1048576 bytes"), std::string::npos)
        << message;
    EXPECT_NE(message.find("nothing was written"), std::string::npos) << message;
  }
  EXPECT_EQ(orders(), 0u);
  EXPECT_EQ(dedup_documents(), 0u);
  EXPECT_TRUE(outbox_store_->read_feed(0, 10).empty());
}

TEST_F(FirestoreOutboxTest, TheCounterDocumentIsNeverReadAsAMessage) {
  auto unit = outbox_store_->begin();
  outbox_.stage(unit->handler_transaction(), {.event_type = "e", .payload = "{}"});
  unit->commit();
  EXPECT_EQ(documents(kOutboxTable).size(), 2u) << "the message and the counter";
  EXPECT_EQ(outbox_store_->read_feed(0, 10).size(), 1u);
  EXPECT_FALSE(outbox_store_->find(outbox::kCounterId).has_value());
  EXPECT_EQ(outbox_store_->claim("relay", clock_.now(), clock_.now() + std::chrono::minutes(1), 10)
                .size(),
            1u);
  EXPECT_TRUE(outbox_store_->parked(0, 10).empty());
}

TEST_F(FirestoreOutboxTest, ClaimPagesPastMessagesNotDueToTheDueOnesBehindThem) {
  auto unit = outbox_store_->begin();
  for (int i = 0; i < 130; ++i) {  // more than one query page (100)
    outbox_.stage(unit->handler_transaction(), {.event_type = "e", .payload = "{}"});
  }
  unit->commit();
  const Timestamp now = clock_.now();
  const Timestamp later = now + std::chrono::minutes(5);
  std::vector<OutboxRecord> first = outbox_store_->claim("relay-a", now, later, 120);
  ASSERT_EQ(first.size(), 120u);
  for (const OutboxRecord& r : first) {
    ASSERT_TRUE(outbox_store_->fail(r.id, "relay-a",
                                    {.error = "down", .park = false, .next_attempt_at = later}));
  }
  const std::vector<OutboxRecord> due = outbox_store_->claim("relay-b", now, later, 5);
  ASSERT_EQ(due.size(), 5u);
  EXPECT_EQ(due.front().sequence, 121) << "the lowest due sequence, behind 120 not due";
  EXPECT_EQ(due.back().sequence, 125);
  EXPECT_EQ(outbox_store_->claim("relay-c", now, later, 10).size(), 5u) << "the other five";
  EXPECT_TRUE(outbox_store_->claim("relay-d", now, later, 10).empty()) << "all leased or not due";
  EXPECT_EQ(outbox_store_->claim("relay-e", later, later + std::chrono::minutes(1), 200).size(),
            130u)
      << "at `later` every message is due and every lease ended";
}

}  // namespace
}  // namespace docket::firestore::detail
