// The entry's state machine, one step at a time, on one thread.
#include "claim_suite.h"
#include "docket/core/error.h"

namespace docket::conformance {
namespace {

using std::chrono::microseconds;

class ClaimLifecycleTest : public ClaimConformance {};

TEST_P(ClaimLifecycleTest, ClaimingAnAbsentEntryCreatesItProcessing) {
  const Timestamp now = clock_.now();
  const ClaimResult result = store_->try_claim(key("m-1"), "worker-a", kLease);
  EXPECT_EQ(result.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(result.retry_count, 0u);
  EXPECT_EQ(result.lease_until, now + kLease);
  const ClaimEntry stored = entry(key("m-1"));
  EXPECT_EQ(stored.key, key("m-1"));
  EXPECT_EQ(stored.status, ClaimStatus::kProcessing);
  EXPECT_EQ(stored.owner, "worker-a");
  EXPECT_EQ(stored.lease_until, now + kLease);
  EXPECT_EQ(stored.received_at, now);
  EXPECT_EQ(stored.updated_at, now);
  EXPECT_EQ(stored.processed_at, std::nullopt);
  EXPECT_EQ(stored.retry_count, 0u);
}

TEST_P(ClaimLifecycleTest, TheOwnerMarksProcessedOnceAndLaterClaimsSeeIt) {
  ASSERT_EQ(store_->try_claim(key("m-1"), "worker-a", kLease).outcome, ClaimOutcome::kClaimed);
  clock_.advance(std::chrono::seconds(2));
  EXPECT_TRUE(store_->mark_processed(key("m-1"), token(key("m-1"), "worker-a")));
  const ClaimEntry stored = entry(key("m-1"));
  EXPECT_EQ(stored.status, ClaimStatus::kProcessed);
  EXPECT_EQ(stored.processed_at, clock_.now());
  EXPECT_EQ(stored.owner, std::nullopt);
  EXPECT_EQ(stored.lease_until, std::nullopt);
  EXPECT_FALSE(store_->mark_processed(key("m-1"), token(key("m-1"), "worker-a")));
  EXPECT_EQ(store_->try_claim(key("m-1"), "worker-b", kLease).outcome,
            ClaimOutcome::kAlreadyProcessed);
  EXPECT_EQ(entry(key("m-1")), stored);
}

TEST_P(ClaimLifecycleTest, OnlyTheOwnerChangesAClaimedEntry) {
  ASSERT_EQ(store_->try_claim(key("m-1"), "worker-a", kLease).outcome, ClaimOutcome::kClaimed);
  const ClaimEntry before = entry(key("m-1"));
  EXPECT_FALSE(store_->mark_processed(key("m-1"), token(key("m-1"), "worker-b")));
  EXPECT_FALSE(store_->release(key("m-1"), token(key("m-1"), "worker-b")));
  EXPECT_FALSE(
      store_->mark_failed(key("m-1"), token(key("m-1"), "worker-b"), {"boom", clock_.now()}));
  EXPECT_EQ(entry(key("m-1")), before);
}

TEST_P(ClaimLifecycleTest, NothingChangesAnEntryThatWasNeverClaimed) {
  EXPECT_FALSE(store_->mark_processed(key("m-1"), token(key("m-1"), "worker-a")));
  EXPECT_FALSE(store_->release(key("m-1"), token(key("m-1"), "worker-a")));
  EXPECT_FALSE(
      store_->mark_failed(key("m-1"), token(key("m-1"), "worker-a"), {"boom", clock_.now()}));
  EXPECT_EQ(store_->find(key("m-1")), std::nullopt);
}

TEST_P(ClaimLifecycleTest, AnotherClaimerIsToldWhoseLeaseIsLive) {
  const Timestamp lease_until =
      store_->try_claim(key("m-1"), "worker-a", kLease).lease_until.value();
  clock_.advance(std::chrono::seconds(1));
  const ClaimResult second = store_->try_claim(key("m-1"), "worker-b", kLease);
  EXPECT_EQ(second.outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(second.lease_until, lease_until);
  EXPECT_EQ(entry(key("m-1")).owner, "worker-a");
  // The owner itself is no exception: a claim is not re-entrant.
  EXPECT_EQ(store_->try_claim(key("m-1"), "worker-a", kLease).outcome,
            ClaimOutcome::kHeldByAnother);
}

TEST_P(ClaimLifecycleTest, ALeaseIsSupersededAtItsEndAndNotBefore) {
  const Timestamp lease_until =
      store_->try_claim(key("m-1"), "worker-a", kLease).lease_until.value();
  clock_.set(lease_until - microseconds(1));
  EXPECT_EQ(store_->try_claim(key("m-1"), "worker-b", kLease).outcome,
            ClaimOutcome::kHeldByAnother);
  clock_.set(lease_until);
  const ClaimResult taken = store_->try_claim(key("m-1"), "worker-b", kLease);
  EXPECT_EQ(taken.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(taken.lease_until, lease_until + kLease);
  // The superseded claimer's late results change nothing.
  EXPECT_FALSE(store_->mark_processed(key("m-1"), token(key("m-1"), "worker-a")));
  EXPECT_FALSE(
      store_->mark_failed(key("m-1"), token(key("m-1"), "worker-a"), {"late", clock_.now()}));
  EXPECT_EQ(entry(key("m-1")).owner, "worker-b");
  EXPECT_TRUE(store_->mark_processed(key("m-1"), token(key("m-1"), "worker-b")));
}

TEST_P(ClaimLifecycleTest, TheOwnerMayStillMarkAfterItsLeaseWhileNobodyTookOver) {
  store_->try_claim(key("m-1"), "worker-a", kLease);
  clock_.advance(kLease + std::chrono::seconds(5));
  EXPECT_TRUE(store_->mark_processed(key("m-1"), token(key("m-1"), "worker-a")));
  EXPECT_EQ(entry(key("m-1")).status, ClaimStatus::kProcessed);
}

TEST_P(ClaimLifecycleTest, ReleaseMakesTheEntryReceivedAndClaimableAtOnce) {
  store_->try_claim(key("m-1"), "worker-a", kLease);
  EXPECT_TRUE(store_->release(key("m-1"), token(key("m-1"), "worker-a")));
  const ClaimEntry released = entry(key("m-1"));
  EXPECT_EQ(released.status, ClaimStatus::kReceived);
  EXPECT_EQ(released.owner, std::nullopt);
  EXPECT_EQ(released.lease_until, std::nullopt);
  EXPECT_FALSE(store_->release(key("m-1"), token(key("m-1"), "worker-a")));
  EXPECT_EQ(store_->try_claim(key("m-1"), "worker-b", kLease).outcome, ClaimOutcome::kClaimed);
}

TEST_P(ClaimLifecycleTest, FailuresAreCountedAndTheCountSurvivesClaimsAndReleases) {
  const Timestamp received = clock_.now();
  store_->try_claim(key("m-1"), "worker-a", kLease);
  const Timestamp retry_at = clock_.now() + std::chrono::seconds(10);
  EXPECT_TRUE(store_->mark_failed(key("m-1"), token(key("m-1"), "worker-a"),
                                  {"gateway timeout", retry_at}));
  ClaimEntry failed = entry(key("m-1"));
  EXPECT_EQ(failed.status, ClaimStatus::kFailed);
  EXPECT_EQ(failed.retry_count, 1u);
  EXPECT_EQ(failed.last_error, "gateway timeout");
  EXPECT_EQ(failed.next_attempt_at, retry_at);
  EXPECT_EQ(failed.owner, std::nullopt);
  EXPECT_EQ(failed.received_at, received);

  // A failed entry is claimable (a redelivery may come before the retry is due).
  const ClaimResult again = store_->try_claim(key("m-1"), "worker-b", kLease);
  EXPECT_EQ(again.outcome, ClaimOutcome::kClaimed);
  EXPECT_EQ(again.retry_count, 1u);
  EXPECT_TRUE(store_->release(key("m-1"), token(key("m-1"), "worker-b")));
  EXPECT_EQ(entry(key("m-1")).retry_count, 1u);
  store_->try_claim(key("m-1"), "worker-c", kLease);
  EXPECT_TRUE(
      store_->mark_failed(key("m-1"), token(key("m-1"), "worker-c"), {"still down", retry_at}));
  failed = entry(key("m-1"));
  EXPECT_EQ(failed.retry_count, 2u);
  EXPECT_EQ(failed.last_error, "still down");
  EXPECT_EQ(failed.received_at, received);
  // Success after failures keeps the count as history.
  store_->try_claim(key("m-1"), "worker-d", kLease);
  EXPECT_TRUE(store_->mark_processed(key("m-1"), token(key("m-1"), "worker-d")));
  EXPECT_EQ(entry(key("m-1")).retry_count, 2u);
}

TEST_P(ClaimLifecycleTest, TryMarkProcessedIsFirstWriterWins) {
  EXPECT_TRUE(store_->try_mark_processed(key("absent")));
  EXPECT_EQ(entry(key("absent")).status, ClaimStatus::kProcessed);
  EXPECT_EQ(entry(key("absent")).processed_at, clock_.now());
  EXPECT_FALSE(store_->try_mark_processed(key("absent")));

  store_->try_claim(key("claimed"), "worker-a", kLease);
  EXPECT_TRUE(store_->try_mark_processed(key("claimed")));
  EXPECT_FALSE(store_->mark_processed(key("claimed"), token(key("claimed"), "worker-a")));
  EXPECT_EQ(entry(key("claimed")).owner, std::nullopt);

  store_->try_claim(key("failed"), "worker-a", kLease);
  store_->mark_failed(key("failed"), token(key("failed"), "worker-a"), {"boom", clock_.now()});
  EXPECT_TRUE(store_->try_mark_processed(key("failed")));
  EXPECT_EQ(entry(key("failed")).retry_count, 1u);
  EXPECT_EQ(store_->try_claim(key("failed"), "worker-b", kLease).outcome,
            ClaimOutcome::kAlreadyProcessed);
}

TEST_P(ClaimLifecycleTest, TenantsAndHandlerTypesHaveEntriesOfTheirOwn) {
  process(key("order-7", "acme"));
  EXPECT_EQ(store_->try_claim(key("order-7", "globex"), "w", kLease).outcome,
            ClaimOutcome::kClaimed);
  EXPECT_EQ(store_->try_claim(key("order-7", "acme", "billing.Other"), "w", kLease).outcome,
            ClaimOutcome::kClaimed);
  EXPECT_EQ(
      store_->try_claim(ClaimKey(TenantId::untenanted(), "order-7", "billing.Invoice"), "w", kLease)
          .outcome,
      ClaimOutcome::kClaimed);
  EXPECT_EQ(entry(key("order-7", "globex")).status, ClaimStatus::kProcessing);
}

// The terms a document store's id composition must keep apart, and text a relational
// store must keep byte for byte.
TEST_P(ClaimLifecycleTest, AwkwardTermsAreKeptApartAndReadBackExactly) {
  const std::vector<ClaimKey> keys = {
      ClaimKey(TenantId("acme"), "corp_42", "H"),
      ClaimKey(TenantId("acme_corp"), "42", "H"),
      ClaimKey(TenantId("a:b"), "c", "H"),
      ClaimKey(TenantId("a"), "b:c", "H"),
      ClaimKey(TenantId("t"), "a/b", "x.y"),
      ClaimKey(TenantId("t"), "100%", "__H__"),
      ClaimKey(TenantId("t"), "Z\xc3\xbcrich \xe2\x82\xac", "H<string, List<int>>"),
  };
  for (const ClaimKey& k : keys) {
    ASSERT_EQ(store_->try_claim(k, "w", kLease).outcome, ClaimOutcome::kClaimed)
        << k.tenant().value() << " " << k.message_id();
  }
  for (const ClaimKey& k : keys) {
    EXPECT_EQ(entry(k).key, k);
  }
  const ClaimPage page = store_->entries({.limit = 100});
  EXPECT_EQ(page.entries.size(), keys.size());
}

TEST_P(ClaimLifecycleTest, BadArgumentsAreRefusedAndNothingIsWritten) {
  EXPECT_THROW(store_->try_claim(key("m-1"), "", kLease), InvalidInputError);
  EXPECT_THROW(store_->try_claim(key("m-1"), "bad\xff", kLease), InvalidInputError);
  EXPECT_THROW(store_->try_claim(key("m-1"), std::string(kMaxClaimOwnerBytes + 1, 'o'), kLease),
               InvalidInputError);
  EXPECT_THROW(store_->try_claim(key("m-1"), "w", microseconds(0)), InvalidInputError);
  EXPECT_THROW(store_->try_claim(key("m-1"), "w", microseconds(-5)), InvalidInputError);
  EXPECT_THROW(store_->try_claim(key("m-1"), "w", kMaxClaimLease + microseconds(1)),
               InvalidInputError);
  EXPECT_EQ(store_->find(key("m-1")), std::nullopt);

  ASSERT_EQ(store_->try_claim(key("m-1"), "w", kMaxClaimLease).outcome, ClaimOutcome::kClaimed);
  const ClaimEntry before = entry(key("m-1"));
  EXPECT_THROW(store_->mark_failed(key("m-1"), token(key("m-1"), "w"), {"bad\xc3", clock_.now()}),
               InvalidInputError);
  EXPECT_THROW(store_->mark_failed(key("m-1"), token(key("m-1"), "w"),
                                   {std::string(kMaxClaimErrorBytes + 1, 'e'), clock_.now()}),
               InvalidInputError);
  EXPECT_EQ(entry(key("m-1")), before);
}

TEST_P(ClaimLifecycleTest, CapabilitiesAreThoseOfAClaimInbox) {
  const StoreCapabilities caps = store_->capabilities();
  EXPECT_FALSE(caps.joins_handler_writes);
  EXPECT_EQ(caps.shared_between_processes, fixture_->shared_url().has_value());
  EXPECT_EQ(caps.shared_between_processes, GetParam().multi_process);
  EXPECT_EQ(store_->provider_name(), GetParam().provider);
}

TEST(ClaimKeyTest, RefusesBadTerms) {
  EXPECT_THROW(ClaimKey(TenantId("t"), "", "H"), InvalidInputError);
  EXPECT_THROW(ClaimKey(TenantId("t"), "m\xff", "H"), InvalidInputError);
  EXPECT_THROW(ClaimKey(TenantId("t"), "m", ""), InvalidInputError);
  EXPECT_THROW(ClaimKey(TenantId("t"), "m", "  "), InvalidInputError);
  EXPECT_THROW(ClaimKey(TenantId("t"), "m", std::string(kMaxHandlerTypeBytes + 1, 'h')),
               InvalidInputError);
  EXPECT_NO_THROW(ClaimKey(TenantId("t"), "m", std::string(kMaxHandlerTypeBytes, 'h')));
}

INSTANTIATE_TEST_SUITE_P(Providers, ClaimLifecycleTest, ::testing::ValuesIn(all_claim_providers()),
                         claim_provider_name);

}  // namespace
}  // namespace docket::conformance
