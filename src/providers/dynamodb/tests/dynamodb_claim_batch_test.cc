// The DynamoDB claim inbox's batches on DynamoDB Local, counted: a batch of new messages
// is one TransactWriteItems of claims and one of marks; a batch holding entries that
// refuse is one cancelled transaction, one for the rest, and an UpdateItem per entry
// taken over; a batch of marks fenced entry by entry, a stale claim id refusing its
// entry alone. What every claim inbox does with a batch is the claim conformance
// suite's (claim_batch_test.cc); this counts what DynamoDB is sent for it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "docket/core/clock.h"
#include "docket/inbox/claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_inbox_store.h"
#include "providers/dynamodb/dynamodb_claim_table.h"
#include "providers/dynamodb/tests/dynamodb_fixture.h"
#include "providers/kit/http/request_count.h"

namespace docket::dynamodb::detail {
namespace {

using std::chrono::seconds;

class DynamoDbClaimBatchTest : public DynamoDbTest {
 protected:
  DynamoDbClaimBatchTest() : store_(url_.text, clock_) {
    made_.push_back(claim::claim_table_schema(url_).name);
    store_.migrate();
  }

  static std::vector<ClaimKey> keys(int count, std::string_view prefix = "m-") {
    std::vector<ClaimKey> out;
    for (int i = 0; i < count; ++i) {
      out.emplace_back(TenantId("acme"), std::string(prefix) + std::to_string(i),
                       "billing.Invoice");
    }
    return out;
  }

  // Each result's token, in order.
  static std::vector<ClaimToken> tokens(const std::vector<ClaimResult>& claims) {
    std::vector<ClaimToken> out;
    for (const ClaimResult& claim : claims) {
      out.push_back(claim.token);
    }
    return out;
  }

  // The requests `work` sends.
  static std::uint64_t requests(const std::function<void()>& work) {
    const std::uint64_t before = kit::http::docket_requests().load();
    work();
    return kit::http::docket_requests().load() - before;
  }

  ManualClock clock_{Timestamp(seconds(1'800'000'000))};
  DynamoDbClaimInboxStore store_;
};

TEST_F(DynamoDbClaimBatchTest, ABatchOfNewMessagesIsOneRequestToClaimAndOneToMark) {
  const std::vector<ClaimKey> batch = keys(10);
  std::vector<ClaimResult> claims;
  EXPECT_EQ(requests([&] { claims = store_.try_claim_batch(batch, "w1", seconds(30)); }), 1u);
  for (const ClaimResult& claim : claims) {
    EXPECT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  }
  std::vector<bool> marked;
  EXPECT_EQ(requests([&] { marked = store_.mark_processed_batch(batch, tokens(claims)); }), 1u);
  EXPECT_EQ(marked, std::vector<bool>(batch.size(), true));
  // Redelivered whole: one cancelled transaction, every entry answered from its reason.
  EXPECT_EQ(requests([&] { claims = store_.try_claim_batch(batch, "w2", seconds(30)); }), 1u);
  for (const ClaimResult& claim : claims) {
    EXPECT_EQ(claim.outcome, ClaimOutcome::kAlreadyProcessed);
  }
}

TEST_F(DynamoDbClaimBatchTest, RefusingEntriesCostOneCancelledTransactionAndTakeOversTheirOwn) {
  const std::vector<ClaimKey> batch = keys(8);
  // m-0 processed, m-1 held by another, m-2 failed (claimable); m-3..m-7 new.
  const ClaimResult processed = store_.try_claim(batch[0], "w0", seconds(30));
  ASSERT_EQ(processed.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_.mark_processed(batch[0], processed.token));
  const ClaimResult held = store_.try_claim(batch[1], "w0", seconds(30));
  ASSERT_EQ(held.outcome, ClaimOutcome::kClaimed);
  const ClaimResult failed = store_.try_claim(batch[2], "w0", seconds(30));
  ASSERT_EQ(failed.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(store_.mark_failed(batch[2], failed.token,
                                 {.error = "boom", .next_attempt_at = clock_.now()}));

  std::vector<ClaimResult> claims;
  // The cancelled transaction, the five new entries' transaction, m-2's UpdateItem.
  EXPECT_EQ(requests([&] { claims = store_.try_claim_batch(batch, "w1", seconds(30)); }), 3u);
  EXPECT_EQ(claims[0].outcome, ClaimOutcome::kAlreadyProcessed);
  EXPECT_EQ(claims[1].outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(claims[2].outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(claims[2].retry_count, 1u);
  for (std::size_t i = 3; i < batch.size(); ++i) {
    EXPECT_EQ(claims[i].outcome, ClaimOutcome::kClaimed) << i;
  }

  // Marks: one cancelled transaction (m-0 and m-1 are not w1's: the token of m-0's
  // ended claim, and w0's claim id of m-1 under w1's name), one for the other six.
  std::vector<ClaimToken> marks = tokens(claims);
  marks[0] = processed.token;
  marks[1] = {.owner = "w1", .claim_id = held.token.claim_id};
  std::vector<bool> marked;
  EXPECT_EQ(requests([&] { marked = store_.mark_processed_batch(batch, marks); }), 2u);
  EXPECT_EQ(marked, (std::vector<bool>{false, false, true, true, true, true, true, true}));
}

TEST_F(DynamoDbClaimBatchTest, TheEntriesARefusalHeldBackAreSentAgainWithoutIt) {
  const std::vector<ClaimKey> batch = keys(2);
  ASSERT_EQ(store_.try_claim(batch[0], "w0", seconds(30)).outcome, ClaimOutcome::kClaimed);
  std::vector<ClaimResult> claims;
  // The cancelled transaction, then one of m-1's put alone.
  EXPECT_EQ(requests([&] { claims = store_.try_claim_batch(batch, "w1", seconds(30)); }), 2u);
  EXPECT_EQ(claims[0].outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(claims[1].outcome, ClaimOutcome::kClaimed);
  const std::vector<ClaimKey> one = keys(1, "solo-");
  EXPECT_EQ(requests([&] { claims = store_.try_claim_batch(one, "w1", seconds(30)); }), 1u);
  EXPECT_EQ(claims[0].outcome, ClaimOutcome::kClaimed);
}

// One runner's batch, one entry of it re-claimed by the same owner after the lease ran
// out (another thread of the runner): the batch's mark presents the first claim's token
// for it, which is stale, and marks the others, not that one.
TEST_F(DynamoDbClaimBatchTest, ABatchMarkWithOneStaleTokenMarksTheOthersAndNotThatOne) {
  const std::vector<ClaimKey> batch = keys(3);
  const std::vector<ClaimResult> claims = store_.try_claim_batch(batch, "w1", seconds(30));
  for (const ClaimResult& claim : claims) {
    ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  }
  clock_.advance(seconds(31));
  const ClaimResult again = store_.try_claim(batch[1], "w1", seconds(30));
  ASSERT_EQ(again.outcome, ClaimOutcome::kClaimed);
  ASSERT_EQ(again.token.owner, claims[1].token.owner);

  std::vector<bool> marked;
  // One cancelled transaction, one of the two others.
  EXPECT_EQ(requests([&] { marked = store_.mark_processed_batch(batch, tokens(claims)); }), 2u);
  EXPECT_EQ(marked, (std::vector<bool>{true, false, true}));
  EXPECT_EQ(store_.find(batch[0])->status, ClaimStatus::kProcessed);
  EXPECT_EQ(store_.find(batch[2])->status, ClaimStatus::kProcessed);
  const std::optional<ClaimEntry> current = store_.find(batch[1]);
  ASSERT_TRUE(current.has_value());
  EXPECT_EQ(current->status, ClaimStatus::kProcessing);
  EXPECT_EQ(current->claim_id, again.token.claim_id);
  EXPECT_EQ(current->lease_until, clock_.now() + seconds(30));
  EXPECT_EQ(store_.mark_processed_batch(std::span(&batch[1], 1), std::span(&again.token, 1)),
            std::vector<bool>{true});
}

}  // namespace
}  // namespace docket::dynamodb::detail
