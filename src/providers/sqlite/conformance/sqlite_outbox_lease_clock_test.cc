// The SQLite outbox leases the relays' claims on the machine's clock
// (LeaseClock::kStore, issue 37): three stores on one file, opened with the system clock
// and with clocks 20 s ahead and behind, stand for relays whose clocks disagree. On each
// relay's own clock, the one ahead would take over a live 10 s lease at once and the one
// behind would hand out a lease already over.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/sqlite/store.h"
#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {
namespace {

using std::chrono::seconds;

constexpr seconds kLease{10};
constexpr seconds kSkew{20};

class SqliteOutboxLeaseClock : public ::testing::Test {
 protected:
  SqliteOutboxLeaseClock() { open(system_)->migrate(); }

  std::unique_ptr<OutboxStore> open(const Clock& clock) {
    return open_outbox_store(StoreOptions{.path = path_}, clock);
  }

  // A pending message, due at once, with the id returned.
  std::string stage() {
    const std::string id = Uuid::v7().to_string();
    Connection(path_, seconds(5))
        .exec(
            "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, "
            "traceparent, tracestate, created_at, status, attempts, next_attempt_at) "
            "VALUES (?1, '__untenanted__', 'OrderPlaced', '{}', 0, '', '', 0, 0, 0, 0)",
            {id});
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

  conformance::eventsourcing::TempDir dir_;
  const std::string path_ = dir_.file("outbox.db");
  const Clock& system_ = SystemClock::instance();
  const OffsetClock ahead_{SystemClock::instance(), kSkew};
  const OffsetClock behind_{SystemClock::instance(), -kSkew};
};

TEST_F(SqliteOutboxLeaseClock, LeasesAreOnTheStoresClock) {
  EXPECT_EQ(open(system_)->capabilities().lease_clock, LeaseClock::kStore);
}

TEST_F(SqliteOutboxLeaseClock, ARelayWhoseClockRunsAheadCannotTakeOverALiveLease) {
  auto store = open(system_);
  auto skewed = open(ahead_);
  const std::string leased = stage();
  ASSERT_EQ(claim(*store, system_, "relay-a"), std::vector<std::string>{leased});
  const std::string fresh = stage();
  EXPECT_EQ(claim(*skewed, ahead_, "relay-b"), std::vector<std::string>{fresh});
  EXPECT_TRUE(store->complete(leased, "relay-a", system_.now()));
}

TEST_F(SqliteOutboxLeaseClock, ARetryTimeFromASkewedRelayIsMovedOntoTheStoresClock) {
  auto skewed = open(ahead_);
  const std::string id = stage();
  ASSERT_EQ(claim(*skewed, ahead_, "relay-b"), std::vector<std::string>{id});
  const Timestamp before = system_.now();
  ASSERT_TRUE(
      skewed->fail(id, "relay-b", {.error = "down", .next_attempt_at = ahead_.now() + kLease}));
  const Timestamp after = system_.now();
  const Timestamp next_attempt_at = skewed->find(id)->next_attempt_at;
  EXPECT_GE(next_attempt_at, before + kLease);
  EXPECT_LE(next_attempt_at, after + kLease);
}

TEST_F(SqliteOutboxLeaseClock, ARelayWhoseClockRunsBehindGetsTheWholeLease) {
  auto store = open(system_);
  auto skewed = open(behind_);
  const std::string leased = stage();
  ASSERT_EQ(claim(*skewed, behind_, "relay-b"), std::vector<std::string>{leased});
  EXPECT_TRUE(claim(*store, system_, "relay-a").empty());
  EXPECT_TRUE(skewed->complete(leased, "relay-b", behind_.now()));
}

}  // namespace
}  // namespace docket::sqlite::detail
