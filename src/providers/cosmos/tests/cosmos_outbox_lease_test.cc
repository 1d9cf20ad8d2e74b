// The Cosmos DB outbox's relay requests against the test server (issue 33): a claim leases
// its candidates of one partition in one transactional batch, and complete_all marks them
// in one more, each replace under the etag its lease's write returned, so that a relay
// whose lease was taken over marks none of those messages and the relay holding them
// marks all. Per-message leases or marks (a replace each, a lookup query first) fail the
// request counts; a mark that ignored a lost lease fails the takeover cases. (A batch is
// all or nothing on the patched server, as on the service: one lost lease fails it.)
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/tests/cosmos_database.h"
#include "providers/kit/http/request_count.h"

namespace docket::cosmos::detail {
namespace {

std::uint64_t cosmos_requests_sent() {
  return kit::http::docket_requests().load();
}

std::vector<std::string> leased_ids(const std::vector<OutboxRecord>& records) {
  std::vector<std::string> ids;
  for (const OutboxRecord& record : records) {
    ids.push_back(record.id);
  }
  return ids;
}

class CosmosOutboxLeaseTest : public ::testing::Test {
 protected:
  static constexpr int kMessages = 20;

  CosmosOutboxLeaseTest() {
    // One producer unit: every message in its tenant's partition.
    const TenantScope acme(TenantId("acme"));
    auto unit = relay_a_->begin();
    for (int i = 0; i < kMessages; ++i) {
      outbox_.stage(unit->handler_transaction(), {.event_type = "e", .payload = "{}"});
    }
    unit->commit();
    now_ = SystemClock::instance().now();  // every message is due by now
  }

  std::size_t done_count() {
    std::size_t done = 0;
    for (const OutboxRecord& record : relay_a_->read_feed(0, 100)) {
      done += record.status == OutboxStatus::kDone ? 1 : 0;
    }
    return done;
  }

  test_support::CosmosDatabase database_;
  // Two store objects, as two relay processes have.
  std::unique_ptr<OutboxStore> relay_a_ =
      docket::open_outbox_store(database_.url(), SystemClock::instance());
  std::unique_ptr<OutboxStore> relay_b_ =
      docket::open_outbox_store(database_.url(), SystemClock::instance());
  Outbox outbox_{*relay_a_};
  Timestamp now_{};
};

TEST_F(CosmosOutboxLeaseTest, AClaimIsItsQueriesAndOneBatchAndItsMarkIsOneRequest) {
  const std::uint64_t before_claim = cosmos_requests_sent();
  const std::vector<OutboxRecord> claimed =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  const std::uint64_t claim_requests = cosmos_requests_sent() - before_claim;
  ASSERT_EQ(claimed.size(), static_cast<std::size_t>(kMessages));
  // A claim that finds nothing to lease (all leased) sends the same queries and no write
  // (through the same store object, whose container checks are done).
  const std::uint64_t before_empty = cosmos_requests_sent();
  EXPECT_TRUE(relay_a_->claim("relay-c", now_, now_ + std::chrono::minutes(1), kMessages).empty());
  const std::uint64_t queries = cosmos_requests_sent() - before_empty;
  // The first claim also read the partition key ranges, which the second reuses when it
  // runs within their age (cosmos_partition_range_cache.h): one more request, or none.
  EXPECT_GE(claim_requests, queries + 1) << "the queries and one batch of " << kMessages;
  EXPECT_LE(claim_requests, queries + 2)
      << "the queries, the ranges' read and one batch of " << kMessages << " leases";

  const std::uint64_t before_mark = cosmos_requests_sent();
  EXPECT_EQ(relay_a_->complete_all(leased_ids(claimed), "relay-a", now_),
            static_cast<std::size_t>(kMessages));
  EXPECT_EQ(cosmos_requests_sent() - before_mark, 1u) << "one batch marks the whole claim";
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages));
  const std::optional<OutboxRecord> first = relay_b_->find(claimed.front().id);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->payload, "{}") << "the mark kept what it does not change";
  EXPECT_TRUE(
      relay_b_
          ->claim("relay-b", now_ + std::chrono::hours(1), now_ + std::chrono::hours(2), kMessages)
          .empty())
      << "the marks ended the leases: nothing is pending";
  EXPECT_EQ(relay_a_->complete_all(leased_ids(claimed), "relay-a", now_), 0u) << "marked once only";
}

// Relay A's lease runs out and relay B, another process, claims the same messages: A's
// remembered etags are stale, so its batch is refused, and reading the messages shows B
// holds them: A marks none. B marks all in one request.
TEST_F(CosmosOutboxLeaseTest, ARelayWhoseLeaseAnotherProcessTookMarksNone) {
  const std::vector<OutboxRecord> a =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(a.size(), static_cast<std::size_t>(kMessages));
  const Timestamp later = now_ + std::chrono::minutes(2);
  const std::vector<OutboxRecord> b =
      relay_b_->claim("relay-b", later, later + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(leased_ids(b), leased_ids(a)) << "A's leases ended: B claims the same messages";

  EXPECT_EQ(relay_a_->complete_all(leased_ids(a), "relay-a", later), 0u);
  EXPECT_EQ(done_count(), 0u) << "A's marks changed nothing";
  const std::uint64_t before = cosmos_requests_sent();
  EXPECT_EQ(relay_b_->complete_all(leased_ids(b), "relay-b", later),
            static_cast<std::size_t>(kMessages));
  EXPECT_EQ(cosmos_requests_sent() - before, 1u);
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages));
}

// One lease of the batch lost (A's batch fails on it): the others are still marked, the
// lost one is not, and the batch is retried once without it.
TEST_F(CosmosOutboxLeaseTest, OneLostLeaseCostsTheOthersNothing) {
  const std::vector<OutboxRecord> a =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(a.size(), static_cast<std::size_t>(kMessages));
  // B records a failure of one message under A's token (as A's own fail() from another
  // process would): that message's etag changes, and it is no longer A's.
  ASSERT_TRUE(relay_b_->fail(
      a[5].id, "relay-a",
      {.error = "boom", .park = false, .next_attempt_at = now_ + std::chrono::hours(1)}));
  std::vector<std::string> ids = leased_ids(a);
  EXPECT_EQ(relay_a_->complete_all(ids, "relay-a", now_), static_cast<std::size_t>(kMessages - 1));
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages - 1));
  EXPECT_NE(relay_b_->find(a[5].id)->status, OutboxStatus::kDone);
}

// The same within one store object: its newer lease replaces the older one's etag, so
// the older token finds none remembered, reads, and marks none.
TEST_F(CosmosOutboxLeaseTest, AStaleTokenOfTheSameStoreMarksNone) {
  const std::vector<OutboxRecord> first =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  const Timestamp later = now_ + std::chrono::minutes(2);
  const std::vector<OutboxRecord> second =
      relay_a_->claim("relay-a2", later, later + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(leased_ids(second), leased_ids(first));

  EXPECT_EQ(relay_a_->complete_all(leased_ids(first), "relay-a", later), 0u);
  EXPECT_FALSE(relay_a_->complete(first.front().id, "relay-a", later));
  EXPECT_EQ(done_count(), 0u);
  EXPECT_EQ(relay_a_->complete_all(leased_ids(second), "relay-a2", later),
            static_cast<std::size_t>(kMessages));
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages));
}

// A mark through a store that did not write the lease (a relay's restart, another store
// object) still marks what the token holds: by reading each message.
TEST_F(CosmosOutboxLeaseTest, AStoreThatDidNotLeaseStillMarksWhatTheTokenHolds) {
  const std::vector<OutboxRecord> claimed =
      relay_a_->claim("relay-a", now_, now_ + std::chrono::minutes(1), kMessages);
  ASSERT_EQ(claimed.size(), static_cast<std::size_t>(kMessages));
  EXPECT_EQ(relay_b_->complete_all(leased_ids(claimed), "relay-b", now_), 0u) << "not B's token";
  EXPECT_EQ(relay_b_->complete_all(leased_ids(claimed), "relay-a", now_),
            static_cast<std::size_t>(kMessages));
  EXPECT_EQ(done_count(), static_cast<std::size_t>(kMessages));
  EXPECT_EQ(relay_a_->complete_all(leased_ids(claimed), "relay-a", now_), 0u)
      << "A's remembered leases are stale: refused, read, already done";
}

}  // namespace
}  // namespace docket::cosmos::detail
