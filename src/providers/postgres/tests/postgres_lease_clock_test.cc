// The PostgreSQL claim inbox and outbox take and compare leases on the server's clock
// (LeaseClock::kStore, issue 37): stores on one schema, opened with the system clock
// and with clocks 20 s ahead and behind, stand for processes whose clocks disagree. On
// each claimer's own clock, the one ahead would take over a live 10 s lease at once,
// and the one behind would hand out a lease already over.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "docket/postgres/claim_inbox_store.h"
#include "docket/postgres/store.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/tests/postgres_schema.h"

namespace docket::postgres::detail {
namespace {

using std::chrono::seconds;

constexpr seconds kLease{10};
constexpr seconds kSkew{20};
// How far the server's clock may read from this process's (the same machine's clock,
// read at other moments): far below the skew the tests tell apart.
constexpr seconds kReadingSlack{1};

class PostgresLeaseClock : public ::testing::Test {
 protected:
  const test_support::PostgresSchema schema_;
  const Clock& system_ = SystemClock::instance();
  const OffsetClock ahead_{SystemClock::instance(), kSkew};
  const OffsetClock behind_{SystemClock::instance(), -kSkew};
};

class PostgresClaimLeaseClock : public PostgresLeaseClock {
 protected:
  std::unique_ptr<ClaimInboxStore> open(const Clock& clock) {
    return open_claim_inbox_store(StoreOptions{.conninfo = schema_.url()}, clock);
  }
};

TEST_F(PostgresClaimLeaseClock, LeasesAreOnTheServersClock) {
  EXPECT_EQ(open(system_)->capabilities().lease_clock, LeaseClock::kStore);
}

TEST_F(PostgresClaimLeaseClock, AClaimerWhoseClockRunsAheadCannotTakeOverALiveLease) {
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

TEST_F(PostgresClaimLeaseClock, AClaimerWhoseClockRunsBehindGetsTheWholeLease) {
  auto store = open(system_);
  auto skewed = open(behind_);
  const ClaimKey key(TenantId::untenanted(), "m-behind", "billing.Invoice");

  const Timestamp before = system_.now();
  const ClaimResult first = skewed->try_claim(key, "worker-b", kLease);
  const Timestamp after = system_.now();
  ASSERT_EQ(first.outcome, ClaimOutcome::kClaimed);
  ASSERT_TRUE(first.lease_until.has_value());
  EXPECT_GE(*first.lease_until, before + kLease - kReadingSlack);
  EXPECT_LE(*first.lease_until, after + kLease + kReadingSlack);
  EXPECT_EQ(store->try_claim(key, "worker-a", kLease).outcome, ClaimOutcome::kHeldByAnother);
}

TEST_F(PostgresClaimLeaseClock, ARenewalFromASkewedClaimerIsOnTheServersClock) {
  auto skewed = open(ahead_);
  const ClaimKey key(TenantId::untenanted(), "m-renew", "billing.Invoice");
  const ClaimResult claimed = skewed->try_claim(key, "worker-b", kLease);
  ASSERT_EQ(claimed.outcome, ClaimOutcome::kClaimed);

  const Timestamp before = system_.now();
  const std::optional<Timestamp> renewed = skewed->renew(key, claimed.token, 2 * kLease);
  const Timestamp after = system_.now();
  ASSERT_TRUE(renewed.has_value());
  EXPECT_GE(*renewed, before + 2 * kLease - kReadingSlack);
  EXPECT_LE(*renewed, after + 2 * kLease + kReadingSlack);
  EXPECT_EQ(skewed->find(key)->lease_until, renewed);
}

class PostgresOutboxLeaseClock : public PostgresLeaseClock {
 protected:
  PostgresOutboxLeaseClock() { open(system_)->migrate(); }

  std::unique_ptr<OutboxStore> open(const Clock& clock) {
    return open_outbox_store(StoreOptions{.conninfo = schema_.url()}, clock);
  }

  // A pending message, due at once, with the id returned.
  std::string stage() {
    const std::string id = Uuid::v7().to_string();
    Connection conn(schema_.url());
    exec(conn,
         "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, traceparent, "
         "tracestate, created_at, status, attempts, next_attempt_at) "
         "VALUES ($1, '__untenanted__', 'OrderPlaced', '\\x7b7d'::bytea, now(), '', '', now(), 0, "
         "0, to_timestamp(0))",
         id);
    return id;
  }

  // What a relay on `clock` claims with a kLease lease, by id.
  static std::vector<std::string> claim(OutboxStore& store, const Clock& clock,
                                        std::string_view token) {
    const Timestamp now = clock.now();
    std::vector<std::string> ids;
    for (const OutboxRecord& record : store.claim(token, now, now + kLease, 10)) {
      ids.push_back(record.id);
    }
    return ids;
  }
};

TEST_F(PostgresOutboxLeaseClock, LeasesAreOnTheServersClock) {
  EXPECT_EQ(open(system_)->capabilities().lease_clock, LeaseClock::kStore);
}

TEST_F(PostgresOutboxLeaseClock, ARelayWhoseClockRunsAheadCannotTakeOverALiveLease) {
  auto store = open(system_);
  auto skewed = open(ahead_);
  const std::string leased = stage();
  ASSERT_EQ(claim(*store, system_, "relay-a"), std::vector<std::string>{leased});
  const std::string fresh = stage();
  EXPECT_EQ(claim(*skewed, ahead_, "relay-b"), std::vector<std::string>{fresh});
  EXPECT_TRUE(store->complete(leased, "relay-a", system_.now()));
}

TEST_F(PostgresOutboxLeaseClock, ARelayWhoseClockRunsBehindGetsTheWholeLease) {
  auto store = open(system_);
  auto skewed = open(behind_);
  const std::string leased = stage();
  ASSERT_EQ(claim(*skewed, behind_, "relay-b"), std::vector<std::string>{leased});
  EXPECT_TRUE(claim(*store, system_, "relay-a").empty());
  EXPECT_TRUE(skewed->complete(leased, "relay-b", behind_.now()));
}

}  // namespace
}  // namespace docket::postgres::detail
