// The claim inbox's state changes on an entry value, without a store: what each one
// changes, and what it leaves alone.
#include "providers/kit/claim_transition.h"

#include <gtest/gtest.h>

namespace docket::kit {
namespace {

using std::chrono::seconds;

const Timestamp kT0(std::chrono::seconds(1'800'000'000));
const ClaimKey kKey(TenantId("acme"), "m-1", "H");
const ClaimToken kW{.owner = "w", .claim_id = "claim-w"};
const ClaimToken kV{.owner = "v", .claim_id = "claim-v"};

TEST(ClaimTransition, ANewEntryIsReceivedAndClaimableAndClaimingItTakesTheLease) {
  ClaimEntry entry = new_claim_entry(kKey, kT0);
  EXPECT_EQ(entry.status, ClaimStatus::kReceived);
  EXPECT_EQ(entry.received_at, kT0);
  EXPECT_TRUE(claimable(entry, kT0));
  const ClaimResult result = claim(entry, kW, kT0, seconds(30));
  EXPECT_EQ(result.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(result.lease_until, kT0 + seconds(30));
  EXPECT_EQ(entry.claim_id, "claim-w");
  EXPECT_TRUE(held_by(entry, kW));
  EXPECT_FALSE(held_by(entry, kV));
  // The same owner under another claim's id does not hold it.
  EXPECT_FALSE(held_by(entry, {.owner = "w", .claim_id = "claim-v"}));
  EXPECT_EQ(renew(entry, kT0 + seconds(20), seconds(30)), kT0 + seconds(50));
  EXPECT_EQ(entry.lease_until, kT0 + seconds(50));
  EXPECT_EQ(entry.updated_at, kT0 + seconds(20));
}

TEST(ClaimTransition, AHeldEntryIsRefusedUntilItsLeaseEndsAndAProcessedOneAlways) {
  ClaimEntry entry = new_claim_entry(kKey, kT0);
  claim(entry, kW, kT0, seconds(30));
  ClaimEntry copy = entry;
  const ClaimResult held = claim(copy, kV, kT0 + seconds(29), seconds(30));
  EXPECT_EQ(held.outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(held.lease_until, kT0 + seconds(30));
  EXPECT_EQ(copy, entry);  // nothing changed
  EXPECT_EQ(claim(copy, kV, kT0 + seconds(30), seconds(30)).outcome, ClaimOutcome::kClaimed);

  mark_processed(entry, kT0 + seconds(1));
  EXPECT_EQ(entry.status, ClaimStatus::kProcessed);
  EXPECT_EQ(entry.processed_at, kT0 + seconds(1));
  EXPECT_EQ(entry.owner, std::nullopt);
  EXPECT_EQ(entry.claim_id, std::nullopt);
  EXPECT_EQ(claim(entry, kV, kT0 + seconds(100), seconds(30)).outcome,
            ClaimOutcome::kAlreadyProcessed);
}

TEST(ClaimTransition, FailureCountsAndSurvivesReleaseAndTheNextClaim) {
  ClaimEntry entry = new_claim_entry(kKey, kT0);
  claim(entry, kW, kT0, seconds(30));
  mark_failed(entry, {"boom", kT0 + seconds(60)}, kT0 + seconds(1));
  EXPECT_EQ(entry.status, ClaimStatus::kFailed);
  EXPECT_EQ(entry.retry_count, 1u);
  EXPECT_EQ(entry.last_error, "boom");
  EXPECT_EQ(entry.next_attempt_at, kT0 + seconds(60));
  EXPECT_EQ(claim(entry, kW, kT0 + seconds(2), seconds(30)).retry_count, 1u);
  release(entry, kT0 + seconds(3));
  EXPECT_EQ(entry.status, ClaimStatus::kReceived);
  EXPECT_EQ(entry.lease_until, std::nullopt);
  EXPECT_EQ(entry.retry_count, 1u);
}

TEST(ClaimTransition, OnlyProcessedEntriesStrictlyBeforeTheCutoffOfTheTenantAreCleanable) {
  ClaimEntry entry = new_claim_entry(kKey, kT0);
  EXPECT_FALSE(cleanable(entry, nullptr, kT0 + seconds(10)));
  mark_processed(entry, kT0);
  EXPECT_FALSE(cleanable(entry, nullptr, kT0));
  EXPECT_TRUE(cleanable(entry, nullptr, kT0 + seconds(1)));
  const TenantId acme("acme");
  const TenantId globex("globex");
  EXPECT_TRUE(cleanable(entry, &acme, kT0 + seconds(1)));
  EXPECT_FALSE(cleanable(entry, &globex, kT0 + seconds(1)));
}

}  // namespace
}  // namespace docket::kit
