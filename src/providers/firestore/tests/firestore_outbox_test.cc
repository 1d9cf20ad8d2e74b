// The Firestore outbox against the emulator, with the inbox: a message a handler stages
// commits in ONE commit with the handler's write and the dedup document, or not at all;
// the sequence counter document is never read as a message; claim pages through pending
// messages that are not due to the due ones behind them. A unit's messages are numbered
// when it commits, from one counter draw (issue 37): a unit held open is not skipped by
// a pull consumer, and a commit failed after its draw holds the consumer for one
// gap_timeout.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/inbox/handler_registry.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/outbox_schema.h"
#include "docket/outbox/pull_consumer.h"
#include "docket/stores/open_store.h"
#include "firestore_inbox_fixture.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_outbox_document.h"
#include "providers/kit/http/request_count.h"

namespace docket::firestore::detail {
namespace {

// A pull consumer "feed-reader" of the outbox through the inbox, with a small overlap,
// that records the payload (a JSON string) of each "Placed" message it handles.
class FeedReader {
 public:
  static constexpr std::int64_t kOverlap = 2;
  static constexpr std::chrono::seconds kGapTimeout{30};

  FeedReader(InboxStore& inbox, OutboxStore& feed, const Clock& clock)
      : dispatcher_(inbox, InboxOptions("feed-reader"), handlers()),
        consumer_(feed, dispatcher_,
                  {.batch_size = 10, .overlap = kOverlap, .gap_timeout = kGapTimeout}, clock) {}

  PullPass poll() { return consumer_.poll(); }
  const std::vector<std::string>& handled() const noexcept { return handled_; }

 private:
  HandlerRegistry handlers() {
    HandlerRegistry registry;
    registry.on<nlohmann::json>("Placed", [this](const nlohmann::json& text, HandlerContext&) {
      handled_.push_back(text.get<std::string>());
    });
    return registry;
  }

  std::vector<std::string> handled_;  // before the dispatcher, whose handler appends to it
  InboxDispatcher dispatcher_;
  PullConsumer consumer_;
};

class FirestoreOutboxTest : public FirestoreInboxTest {
 protected:
  // A "Placed" message whose payload is the JSON string `text`.
  static OutboxMessage placed(const std::string& text, std::optional<Uuid> id = std::nullopt) {
    return {.event_type = "Placed", .payload = nlohmann::json(text).dump(), .id = id};
  }
  // Stages placed(text, id) in a unit of its own and commits it.
  void commit_placed(const std::string& text, std::optional<Uuid> id = std::nullopt) {
    auto unit = outbox_store_->begin();
    outbox_.stage(unit->handler_transaction(), placed(text, id));
    unit->commit();
  }

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
  EXPECT_EQ(message->sequence, 1) << "the rolled-back unit drew no sequence: it left no gap";
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

// Issue 37: the sequence is drawn when the unit commits, not when it stages, so a
// producer's unit held open past gap_timeout while more than the pull consumer's overlap
// of later messages commit is not skipped: its message takes a sequence above theirs.
// (Drawn at staging, it held the lowest sequence, which the consumer passed as a
// rolled-back gap and, once it committed, no longer re-read.)
TEST_F(FirestoreOutboxTest, AUnitHeldOpenPastTheGapTimeoutIsDispatchedWhenItCommits) {
  FeedReader reader(*store_, *outbox_store_, clock_);
  auto held = outbox_store_->begin();
  outbox_.stage(held->handler_transaction(), placed("held"));
  std::vector<std::string> later;
  for (std::int64_t i = 0; i <= FeedReader::kOverlap; ++i) {  // more than the overlap
    later.push_back("later-" + std::to_string(i));
    commit_placed(later.back());
  }
  reader.poll();
  clock_.advance(FeedReader::kGapTimeout);
  reader.poll();  // past any gap the held unit left
  EXPECT_EQ(reader.handled(), later);

  held->commit();
  for (int poll = 0; poll < 3; ++poll) {
    reader.poll();
    clock_.advance(FeedReader::kGapTimeout);
  }
  later.push_back("held");
  EXPECT_EQ(reader.handled(), later) << "the held unit's message is dispatched once it commits";
}

// The gap a commit leaves when it fails after its draw (here: refused, as its message id
// is taken) holds the pull consumer's checkpoint for one gap_timeout, no longer, and
// loses nothing.
TEST_F(FirestoreOutboxTest, ACommitFailedAfterItsDrawHoldsTheConsumerForOneGapTimeout) {
  FeedReader reader(*store_, *outbox_store_, clock_);
  const Uuid taken = Uuid::v7();
  commit_placed("first", taken);
  EXPECT_THROW(commit_placed("refused", taken), UniqueViolationError);
  commit_placed("after");
  const std::vector<OutboxRecord> feed = outbox_store_->read_feed(0, 10);
  ASSERT_EQ(feed.size(), 2u);
  ASSERT_EQ(feed[1].sequence, feed[0].sequence + 2) << "the refused commit's number is a gap";

  EXPECT_EQ(reader.poll().checkpoint, feed[0].sequence);
  clock_.advance(FeedReader::kGapTimeout - std::chrono::seconds(1));
  EXPECT_EQ(reader.poll().checkpoint, feed[0].sequence) << "the gap holds it";
  clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(reader.poll().checkpoint, feed[1].sequence) << "for one gap_timeout";
  EXPECT_EQ(reader.handled(), (std::vector<std::string>{"first", "after"}));
}

// Round trips: staging sends nothing; the commit sends one draw of the counter for all
// of the unit's messages and the one commit, whatever the number of messages.
TEST_F(FirestoreOutboxTest, AUnitsMessagesTakeOneCounterDrawAtCommit) {
  const auto requests = [] { return kit::http::docket_requests().load(); };
  {  // first, so that the store has read what it reads once (a table's key schema)
    auto first = outbox_store_->begin();
    outbox_.stage(first->handler_transaction(), {.event_type = "e", .payload = "{}"});
    first->commit();
  }
  auto unit = outbox_store_->begin();
  const std::uint64_t before_staging = requests();
  for (int i = 0; i < 3; ++i) {
    outbox_.stage(unit->handler_transaction(), {.event_type = "e", .payload = "{}"});
  }
  const std::uint64_t before_commit = requests();
  unit->commit();
  const std::uint64_t after_commit = requests();
  EXPECT_EQ(before_commit - before_staging, 0u) << "nothing is sent before the commit";
  EXPECT_EQ(after_commit - before_commit, 2u) << "the counter's draw and the commit";
  const std::vector<OutboxRecord> feed = outbox_store_->read_feed(0, 10);
  ASSERT_EQ(feed.size(), 4u);
  EXPECT_EQ(feed[1].sequence, feed[0].sequence + 1);
  EXPECT_EQ(feed[2].sequence, feed[1].sequence + 1) << "consecutive, in staging order";
  EXPECT_EQ(feed[3].sequence, feed[2].sequence + 1);
}

}  // namespace
}  // namespace docket::firestore::detail
