// The Firestore outbox against the emulator, with the inbox: a message a handler stages
// commits in ONE commit with the handler's write and the dedup document, or not at all;
// the sequence counter document is never read as a message.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "docket/open_outbox_store.h"
#include "docket/outbox.h"
#include "docket/outbox_schema.h"
#include "firestore_inbox_fixture.h"
#include "providers/firestore/firestore_outbox_document.h"

namespace docket::firestore {
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

}  // namespace
}  // namespace docket::firestore
