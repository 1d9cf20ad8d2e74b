// Fencing tokens and lease clocks: every claim has a token of its own, and only the
// entry's current claim changes it, even when an earlier claim had the same owner (two
// threads of one runner); renewals extend the current claim alone; a claimer whose
// clock is skewed cannot take over a live lease on a store that keeps leases on its own
// clock, and on a store that keeps them on the claimer's clock, a skew within the
// lease cannot either (beyond it, the documented bound, it can).
#include <optional>

#include "claim_suite.h"
#include "docket/core/error.h"
#include "docket/inbox/claim_runner.h"

namespace docket::conformance {
namespace {

using std::chrono::microseconds;
using std::chrono::seconds;

class ClaimFencingTest : public ClaimConformance {};

TEST_P(ClaimFencingTest, EveryClaimHasATokenOfItsOwnWhichTheEntryKeepsWhileHeld) {
  const ClaimResult first = store_->try_claim(key("m-1"), "runner", kLease);
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(first.token.owner, "runner");
  EXPECT_FALSE(first.token.claim_id.empty());
  EXPECT_EQ(entry(key("m-1")).claim_id, first.token.claim_id);

  clock_.advance(kLease);
  const ClaimResult second = store_->try_claim(key("m-1"), "runner", kLease);
  ASSERT_EQ(second.outcome, ClaimOutcome::kClaimed);
  EXPECT_NE(second.token.claim_id, first.token.claim_id);
  EXPECT_EQ(entry(key("m-1")).claim_id, second.token.claim_id);

  const ClaimResult refused = store_->try_claim(key("m-1"), "other", kLease);
  EXPECT_EQ(refused.outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(refused.token, ClaimToken{});

  ASSERT_TRUE(store_->mark_processed(key("m-1"), second.token));
  EXPECT_EQ(entry(key("m-1")).claim_id, std::nullopt);
  EXPECT_EQ(entry(key("m-1")).owner, std::nullopt);
}

// Issue 37, point 1: the same owner's earlier claim, taken over after its lease, can
// neither fail nor finish the entry under the later claim.
TEST_P(ClaimFencingTest, AnEarlierClaimOfTheSameOwnerChangesNothing) {
  const ClaimResult stale = store_->try_claim(key("m-1"), "runner", kLease);
  ASSERT_EQ(stale.outcome, ClaimOutcome::kClaimed);
  clock_.advance(kLease + seconds(1));
  const ClaimResult current = store_->try_claim(key("m-1"), "runner", kLease);
  ASSERT_EQ(current.outcome, ClaimOutcome::kClaimed);
  const ClaimEntry held = entry(key("m-1"));

  EXPECT_FALSE(store_->mark_failed(key("m-1"), stale.token, {"boom", clock_.now()}));
  EXPECT_FALSE(store_->mark_processed(key("m-1"), stale.token));
  EXPECT_FALSE(store_->release(key("m-1"), stale.token));
  EXPECT_EQ(store_->renew(key("m-1"), stale.token, kLease), std::nullopt);
  const std::vector<ClaimKey> batch = {key("m-1")};
  EXPECT_EQ(store_->mark_processed_batch(batch, std::vector{stale.token}),
            std::vector<bool>{false});
  EXPECT_EQ(entry(key("m-1")), held);
  // Still held by the current claim: nobody else may claim it while its lease lasts.
  EXPECT_EQ(store_->try_claim(key("m-1"), "third", kLease).outcome, ClaimOutcome::kHeldByAnother);

  EXPECT_TRUE(store_->mark_processed(key("m-1"), current.token));
  EXPECT_EQ(entry(key("m-1")).status, ClaimStatus::kProcessed);
}

TEST_P(ClaimFencingTest, ABatchMarkWithOneStaleTokenMarksTheOthers) {
  const std::vector<ClaimKey> batch = {key("m-1"), key("m-2"), key("m-3")};
  const std::vector<ClaimResult> claims = store_->try_claim_batch(batch, "runner", kLease);
  for (const ClaimResult& claim : claims) {
    ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  }
  EXPECT_NE(claims[0].token.claim_id, claims[1].token.claim_id);
  clock_.advance(kLease);
  const ClaimResult again = store_->try_claim(key("m-2"), "runner", kLease);
  ASSERT_EQ(again.outcome, ClaimOutcome::kClaimed);
  const std::vector<ClaimToken> tokens = {claims[0].token, claims[1].token, claims[2].token};
  EXPECT_EQ(store_->mark_processed_batch(batch, tokens), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(entry(key("m-2")).status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry(key("m-2")).claim_id, again.token.claim_id);
}

TEST_P(ClaimFencingTest, ARenewalExtendsTheCurrentClaimsLease) {
  const Timestamp start = clock_.now();
  const ClaimResult claim = store_->try_claim(key("m-1"), "runner", kLease);
  ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  clock_.advance(seconds(20));
  EXPECT_EQ(store_->renew(key("m-1"), claim.token, kLease), start + seconds(50));
  EXPECT_EQ(entry(key("m-1")).lease_until, start + seconds(50));
  EXPECT_EQ(entry(key("m-1")).status, ClaimStatus::kProcessing);

  clock_.set(start + seconds(50) - microseconds(1));
  EXPECT_EQ(store_->try_claim(key("m-1"), "other", kLease).outcome, ClaimOutcome::kHeldByAnother);
  clock_.set(start + seconds(50));
  const ClaimResult taken = store_->try_claim(key("m-1"), "other", kLease);
  EXPECT_EQ(taken.outcome, ClaimOutcome::kClaimed);
  // Taken over: the renewal is refused and changes nothing.
  const ClaimEntry after = entry(key("m-1"));
  EXPECT_EQ(store_->renew(key("m-1"), claim.token, kLease), std::nullopt);
  EXPECT_EQ(entry(key("m-1")), after);
}

TEST_P(ClaimFencingTest, ALeaseThatRanOutWithNobodyClaimingIsRenewed) {
  const ClaimResult claim = store_->try_claim(key("m-1"), "runner", kLease);
  ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  clock_.advance(kLease + seconds(5));
  EXPECT_EQ(store_->renew(key("m-1"), claim.token, kLease), clock_.now() + kLease);
  EXPECT_EQ(store_->try_claim(key("m-1"), "other", kLease).outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_TRUE(store_->mark_processed(key("m-1"), claim.token));
}

TEST_P(ClaimFencingTest, ATokenOrLeaseThatCannotBeRightIsRefusedAndWritesNothing) {
  const ClaimResult claim = store_->try_claim(key("m-1"), "runner", kLease);
  ASSERT_EQ(claim.outcome, ClaimOutcome::kClaimed);
  const ClaimEntry held = entry(key("m-1"));
  EXPECT_THROW(store_->renew(key("m-1"), claim.token, seconds(0)), InvalidInputError);
  EXPECT_THROW(store_->renew(key("m-1"), claim.token, kMaxClaimLease + seconds(1)),
               InvalidInputError);
  EXPECT_THROW(store_->mark_processed(key("m-1"), {.owner = "runner", .claim_id = ""}),
               InvalidInputError);
  EXPECT_THROW(store_->release(key("m-1"), {.owner = "", .claim_id = claim.token.claim_id}),
               InvalidInputError);
  EXPECT_THROW(store_->mark_processed_batch(std::vector{key("m-1")},
                                            std::vector<ClaimToken>{claim.token, claim.token}),
               InvalidInputError);
  EXPECT_EQ(entry(key("m-1")), held);
}

// Issue 37, point 2: two stores on one database, one of them in a process whose clock
// runs ahead. Wall clocks here (the system's, and an offset from it), since a
// simulated clock is what every store follows.
TEST_P(ClaimFencingTest, ASkewedClaimerCannotTakeALiveLeaseEarly) {
  const std::unique_ptr<ClaimFixture> fixture = GetParam().make();
  const std::unique_ptr<ClaimInboxStore> honest = fixture->open(SystemClock::instance());
  honest->migrate();
  const LeaseClock lease_clock = honest->capabilities().lease_clock;
  const seconds lease{10};
  // On the store's clock any skew is harmless; on the claimers', one within the lease.
  const seconds skew = lease_clock == LeaseClock::kStore ? seconds(20) : seconds(2);
  const OffsetClock ahead(SystemClock::instance(), skew);
  const std::unique_ptr<ClaimInboxStore> skewed = fixture->open(ahead);

  const ClaimResult held = honest->try_claim(key("m-1"), "honest", lease);
  ASSERT_EQ(held.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(skewed->try_claim(key("m-1"), "skewed", lease).outcome, ClaimOutcome::kHeldByAnother);
  // The other way round: the skewed claimer's lease holds against the honest one.
  const ClaimResult theirs = skewed->try_claim(key("m-2"), "skewed", lease);
  ASSERT_EQ(theirs.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(honest->try_claim(key("m-2"), "honest", lease).outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_TRUE(honest->mark_processed(key("m-1"), held.token));
  EXPECT_TRUE(skewed->mark_processed(key("m-2"), theirs.token));

  if (lease_clock == LeaseClock::kClaimer) {
    // Beyond the bound, as the docs say: a claimer more than a lease ahead takes over.
    const OffsetClock far_ahead(SystemClock::instance(), 2 * lease);
    const std::unique_ptr<ClaimInboxStore> far = fixture->open(far_ahead);
    ASSERT_EQ(honest->try_claim(key("m-3"), "honest", lease).outcome, ClaimOutcome::kClaimed);
    EXPECT_EQ(far->try_claim(key("m-3"), "far", lease).outcome, ClaimOutcome::kClaimed);
  }
}

// Where leases are on the claimer's clock, a runner's lease must exceed the skew it is
// told to allow for; where they are on the store's, the skew does not matter.
TEST_P(ClaimFencingTest, ARunnerChecksItsLeaseAgainstTheClockSkewItAllows) {
  const ClaimRunnerSettings short_lease{.lease = seconds(1), .max_clock_skew = seconds(2)};
  if (store_->capabilities().lease_clock == LeaseClock::kClaimer) {
    EXPECT_THROW(ClaimRunner(*store_, ClaimRunnerOptions("h", short_lease)), ConfigurationError);
  } else {
    EXPECT_NO_THROW(ClaimRunner(*store_, ClaimRunnerOptions("h", short_lease)));
  }
  EXPECT_NO_THROW(ClaimRunner(*store_, ClaimRunnerOptions("h", {.lease = seconds(30)})));
}

INSTANTIATE_TEST_SUITE_P(Providers, ClaimFencingTest, ::testing::ValuesIn(all_claim_providers()),
                         claim_provider_name);

}  // namespace
}  // namespace docket::conformance
