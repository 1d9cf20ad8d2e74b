// The Firestore outbox's relay requests against the emulator (issue 33): a claim leases
// its messages in one batchWrite and complete_all marks them in one more, each mark
// conditioned on the update time its lease's write returned, so that a relay whose lease
// was taken over marks none of those messages and the relay holding them marks all.
// Per-message marks (a get and a commit each) fail the request counts; a mark that
// ignored a lost lease fails the takeover cases.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"
#include "firestore_inbox_fixture.h"
#include "providers/kit/http/request_count.h"

namespace docket::firestore::detail {
namespace {

std::uint64_t docket_requests_sent() {
  return kit::http::docket_requests().load();
}

std::vector<std::string> ids_of(const std::vector<OutboxRecord>& records) {
  std::vector<std::string> ids;
  for (const OutboxRecord& record : records) {
    ids.push_back(record.id);
  }
  return ids;
}

class FirestoreOutboxLeaseTest : public FirestoreInboxTest {
 protected:
  static constexpr int kMessages = 20;

  FirestoreOutboxLeaseTest() {
    auto unit = relay_a_->begin();
    for (int i = 0; i < kMessages; ++i) {
      outbox_.stage(unit->handler_transaction(), {.event_type = "e", .payload = "{}"});
    }
    unit->commit();
  }

  std::size_t done_count() {
    std::size_t done = 0;
    for (const OutboxRecord& record : relay_a_->read_feed(0, 100)) {
      done += record.status == OutboxStatus::kDone ? 1 : 0;
    }
    return done;
  }

  // Two store objects, as two relay processes have.
  std::unique_ptr<OutboxStore> relay_a_ = open_outbox_store(collections_.url(), clock_);
  std::unique_ptr<OutboxStore> relay_b_ = open_outbox_store(collections_.url(), clock_);
  Outbox outbox_{*relay_a_, clock_};
  const Timestamp now_ = clock_.now();
};

TEST_F(FirestoreOutboxLeaseTest, AClaimIsOneQueryAndOneWriteAndItsMarkIsOneRequest) {
  const std::uint64_t before_claim = docket_requests_sent();
  const std::vector<OutboxRecord> claimed =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  const std::uint64_t before_mark = docket_requests_sent();
  ASSERT_EQ(claimed.size(), static_cast<std::size_t>(kMessages));
  EXPECT_EQ(before_mark - before_claim, 2u) << "one query page and one batchWrite of leases";

  EXPECT_EQ(relay_a_->complete_all(ids_of(claimed), "relay-a", now_),
            static_cast<std::size_t>(kMessages));
  EXPECT_EQ(docket_requests_sent() - before_mark, 1u) << "one batchWrite marks the whole claim";
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages));
  const std::optional<OutboxRecord> first = relay_b_->find(claimed.front().id);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->done_at, now_);
  EXPECT_EQ(first->payload, "{}") << "the masked mark kept the fields it does not change";
  EXPECT_TRUE(
      relay_b_
          ->claim("relay-b", now_ + std::chrono::hours(1), now_ + std::chrono::hours(2), kMessages)
          .empty())
      << "the marks ended the leases: nothing is pending";
  EXPECT_EQ(relay_a_->complete_all(ids_of(claimed), "relay-a", now_), 0u) << "marked once only";
}

// Relay A's lease runs out and relay B, another process, claims the same messages: A's
// remembered update times are stale, so its one batchWrite is refused for every message,
// and reading them shows B holds them: A marks none. B marks all in one request.
TEST_F(FirestoreOutboxLeaseTest, ARelayWhoseLeaseAnotherProcessTookMarksNone) {
  const std::vector<OutboxRecord> a =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(a.size(), static_cast<std::size_t>(kMessages));
  const Timestamp later = now_ + std::chrono::minutes(2);
  const std::vector<OutboxRecord> b =
      relay_b_->claim("relay-b", later, later + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(ids_of(b), ids_of(a)) << "A's leases ended: B claims the same messages";

  EXPECT_EQ(relay_a_->complete_all(ids_of(a), "relay-a", later), 0u);
  EXPECT_EQ(done_count(), 0u) << "A's marks changed nothing";
  const std::uint64_t before = docket_requests_sent();
  EXPECT_EQ(relay_b_->complete_all(ids_of(b), "relay-b", later),
            static_cast<std::size_t>(kMessages));
  EXPECT_EQ(docket_requests_sent() - before, 1u);
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages));
}

// The same within one store object: its newer lease replaces the older one's update
// time, so the older token finds none remembered, reads, and marks none.
TEST_F(FirestoreOutboxLeaseTest, AStaleTokenOfTheSameStoreMarksNone) {
  const std::vector<OutboxRecord> first =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  const Timestamp later = now_ + std::chrono::minutes(2);
  const std::vector<OutboxRecord> second =
      relay_a_->claim("relay-a2", later, later + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(ids_of(second), ids_of(first));

  EXPECT_EQ(relay_a_->complete_all(ids_of(first), "relay-a", later), 0u);
  EXPECT_FALSE(relay_a_->complete(first.front().id, "relay-a", later));
  EXPECT_EQ(done_count(), 0u);
  EXPECT_EQ(relay_a_->complete_all(ids_of(second), "relay-a2", later),
            static_cast<std::size_t>(kMessages));
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages));
}

// A mark through a store that did not write the lease (a relay's restart, another store
// object) still marks what the token holds: by reading each message.
TEST_F(FirestoreOutboxLeaseTest, AStoreThatDidNotLeaseStillMarksWhatTheTokenHolds) {
  const std::vector<OutboxRecord> claimed =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(claimed.size(), static_cast<std::size_t>(kMessages));
  EXPECT_EQ(relay_b_->complete_all(ids_of(claimed), "relay-b", now_), 0u) << "not B's token";
  EXPECT_EQ(relay_b_->complete_all(ids_of(claimed), "relay-a", now_),
            static_cast<std::size_t>(kMessages));
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages));
  EXPECT_EQ(relay_a_->complete_all(ids_of(claimed), "relay-a", now_), 0u)
      << "A's remembered leases are stale: refused, read, already done";
}

}  // namespace
}  // namespace docket::firestore::detail
