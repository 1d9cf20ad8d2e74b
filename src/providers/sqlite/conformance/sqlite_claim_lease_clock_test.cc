// The SQLite claim inbox takes and compares leases on the machine's clock
// (LeaseClock::kStore, issue 37): two stores on one file, one opened with the system
// clock and one with a clock skewed by 20 s, stand for two processes whose clocks
// disagree. On each claimer's own clock, the one ahead would take over a live 10 s lease
// at once, and the one behind would hand out a lease already over.
#include <gtest/gtest.h>

#include <chrono>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/sqlite/claim_inbox_store.h"

namespace docket::sqlite {
namespace {

using std::chrono::seconds;

constexpr seconds kLease{10};
constexpr seconds kSkew{20};

class SqliteClaimLeaseClock : public ::testing::Test {
 protected:
  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) {
    return open_claim_inbox_store(StoreOptions{.path = dir_.file("claims.db")}, clock);
  }

  conformance::eventsourcing::TempDir dir_;
  const Clock& system_ = SystemClock::instance();
  const OffsetClock ahead_{SystemClock::instance(), kSkew};
  const OffsetClock behind_{SystemClock::instance(), -kSkew};
};

TEST_F(SqliteClaimLeaseClock, LeasesAreOnTheStoresClock) {
  EXPECT_EQ(open(system_)->capabilities().lease_clock, LeaseClock::kStore);
}

TEST_F(SqliteClaimLeaseClock, AClaimerWhoseClockRunsAheadCannotTakeOverALiveLease) {
  auto store = open(system_);
  auto skewed = open(ahead_);
  const ClaimKey key(TenantId::untenanted(), "m-ahead", "billing.Invoice");

  const ClaimResult first = store->try_claim(key, "worker-a", kLease);
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  const ClaimResult second = skewed->try_claim(key, "worker-b", kLease);
  EXPECT_EQ(second.outcome, ClaimOutcome::kHeldByAnother);
  EXPECT_EQ(second.lease_until, first.lease_until);
  const auto batch = skewed->try_claim_batch(std::span(&key, 1), "worker-b", kLease);
  ASSERT_EQ(batch.size(), 1U);
  EXPECT_EQ(batch[0].outcome, ClaimOutcome::kHeldByAnother);

  EXPECT_EQ(store->find(key)->claim_id, first.token.claim_id);
  EXPECT_TRUE(store->mark_processed(key, first.token));
}

TEST_F(SqliteClaimLeaseClock, AClaimerWhoseClockRunsBehindGetsTheWholeLease) {
  auto store = open(system_);
  auto skewed = open(behind_);
  const ClaimKey key(TenantId::untenanted(), "m-behind", "billing.Invoice");

  const Timestamp before = system_.now();
  const ClaimResult first = skewed->try_claim(key, "worker-b", kLease);
  const Timestamp after = system_.now();
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(first.lease_until.has_value());
  EXPECT_GE(*first.lease_until, before + kLease);
  EXPECT_LE(*first.lease_until, after + kLease);
  EXPECT_EQ(store->try_claim(key, "worker-a", kLease).outcome, ClaimOutcome::kHeldByAnother);
}

TEST_F(SqliteClaimLeaseClock, ARenewalFromASkewedClaimerIsOnTheStoresClock) {
  auto skewed = open(ahead_);
  const ClaimKey key(TenantId::untenanted(), "m-renew", "billing.Invoice");
  const ClaimResult claimed = skewed->try_claim(key, "worker-b", kLease);
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);

  const Timestamp before = system_.now();
  const std::optional<Timestamp> renewed = skewed->renew(key, claimed.token, 2 * kLease);
  const Timestamp after = system_.now();
  ASSERT_TRUE(renewed.has_value());
  EXPECT_GE(*renewed, before + 2 * kLease);
  EXPECT_LE(*renewed, after + 2 * kLease);
  EXPECT_EQ(skewed->find(key)->lease_until, renewed);
}

}  // namespace
}  // namespace docket::sqlite
