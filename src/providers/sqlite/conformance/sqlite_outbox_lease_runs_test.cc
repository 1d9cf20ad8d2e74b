// The SQLite outbox's leases are runs of sequences (sqlite_outbox_leases.h): a claim
// writes a run per stretch of rows it took, never covering a pending or parked row it
// did not take. These tests stand a second relay beside a live claim and check that every
// row the claim did not take (not yet due, failed, parked then replayed) is the second
// relay's to take, that the claim's own rows are not, and that the runs go when their
// rows are done. A claim written as one run from its first to its last row fails them.
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

constexpr seconds kRunLease{30};
constexpr std::int64_t kRunsFarFuture = 4'000'000'000'000'000;  // Unix µs, in the year 2096

class SqliteOutboxLeaseRuns : public ::testing::Test {
 protected:
  SqliteOutboxLeaseRuns() { store_->migrate(); }

  // A pending message due at `due_at` (Unix µs), with the id returned.
  std::string stage(std::int64_t due_at = 0) {
    const std::string id = Uuid::v7().to_string();
    db_.exec(
        "INSERT INTO docket_outbox (id, tenant, event_type, payload, occurred_at, traceparent, "
        "tracestate, created_at, status, attempts, next_attempt_at) "
        "VALUES (?1, '__untenanted__', 'OrderPlaced', '{}', 0, '', '', 0, 0, 0, ?2)",
        {id, due_at});
    return id;
  }

  void make_due(const std::string& id) {
    db_.exec("UPDATE docket_outbox SET next_attempt_at = 0 WHERE id = ?1", {id});
  }

  std::vector<std::string> claim(std::string_view token, std::size_t limit = 100) {
    const Timestamp now = SystemClock::instance().now();
    std::vector<std::string> ids;
    for (const OutboxRecord& record : store_->claim(token, now, now + kRunLease, limit)) {
      ids.push_back(record.id);
    }
    return ids;
  }

  std::int64_t runs() {
    return std::get<std::int64_t>(
        db_.query("SELECT count(*) FROM docket_outbox_leases").at(0).at(0));
  }

  conformance::eventsourcing::TempDir dir_;
  const std::string path_ = dir_.file("outbox.db");
  std::unique_ptr<OutboxStore> store_ = open_outbox_store(StoreOptions{.path = path_});
  Connection db_{path_, seconds(5)};
};

TEST_F(SqliteOutboxLeaseRuns, ARowNotYetDueBetweenClaimedRowsIsAnotherRelaysOnceDue) {
  const std::string a = stage();
  const std::string later = stage(kRunsFarFuture);
  const std::string b = stage();
  ASSERT_EQ(claim("relay-1"), (std::vector<std::string>{a, b}));
  EXPECT_EQ(runs(), 2);
  make_due(later);
  EXPECT_EQ(claim("relay-2"), std::vector<std::string>{later});
  EXPECT_TRUE(claim("relay-3").empty());  // a and b are still relay-1's
}

TEST_F(SqliteOutboxLeaseRuns, ARowAnotherClaimHoldsSplitsTheRuns) {
  const std::string a = stage();
  const std::string held = stage();
  ASSERT_EQ(claim("relay-1", 2), (std::vector<std::string>{a, held}));
  ASSERT_TRUE(store_->complete(a, "relay-1", SystemClock::instance().now()));
  const std::string c = stage();
  ASSERT_EQ(claim("relay-2"), std::vector<std::string>{c});
  // relay-1 still holds `held`: relay-2's run covers c alone, and marking it releases it.
  ASSERT_TRUE(store_->complete(c, "relay-2", SystemClock::instance().now()));
  EXPECT_EQ(runs(), 1);
  EXPECT_TRUE(store_->complete(held, "relay-1", SystemClock::instance().now()));
  EXPECT_EQ(runs(), 0);
}

TEST_F(SqliteOutboxLeaseRuns, AFailedRowLeavesItsRunAndItsRetryIsAnotherRelaysOnceDue) {
  const std::string a = stage();
  const std::string failing = stage();
  const std::string c = stage();
  ASSERT_EQ(claim("relay-1"), (std::vector<std::string>{a, failing, c}));
  ASSERT_TRUE(store_->fail(
      failing, "relay-1", {.error = "broker down", .park = false, .next_attempt_at = Timestamp{}}));
  EXPECT_EQ(claim("relay-2"), std::vector<std::string>{failing});
  EXPECT_FALSE(store_->complete(failing, "relay-1", SystemClock::instance().now()));
  EXPECT_TRUE(store_->complete(failing, "relay-2", SystemClock::instance().now()));
  EXPECT_EQ(store_->complete_all(std::vector<std::string>{a, c}, "relay-1",
                                 SystemClock::instance().now()),
            2U);
  EXPECT_EQ(runs(), 0);
}

TEST_F(SqliteOutboxLeaseRuns, AParkedRowBetweenClaimedRowsIsAnotherRelaysOnceReplayed) {
  const std::string parked = stage();
  ASSERT_EQ(claim("relay-0"), std::vector<std::string>{parked});
  ASSERT_TRUE(store_->fail(parked, "relay-0", {.error = "refused", .park = true}));
  // The parked row lies below the next two, so the claim must cut around it: stage two
  // rows on each side by moving the parked row's sequence between them.
  const std::string a = stage();
  const std::string b = stage();
  db_.exec(
      "UPDATE docket_outbox SET sequence = (SELECT max(sequence) FROM docket_outbox) + 1 "
      "WHERE id = ?1",
      {parked});
  const std::string c = stage();
  ASSERT_EQ(claim("relay-1"), (std::vector<std::string>{a, b, c}));
  EXPECT_EQ(runs(), 2);
  ASSERT_TRUE(store_->replay(parked, SystemClock::instance().now()));
  EXPECT_EQ(claim("relay-2"), std::vector<std::string>{parked});
}

TEST_F(SqliteOutboxLeaseRuns, AClaimWhoseRowsAllFailLeavesNoRun) {
  const std::string a = stage();
  const std::string b = stage();
  ASSERT_EQ(claim("relay-1"), (std::vector<std::string>{a, b}));
  ASSERT_TRUE(store_->fail(a, "relay-1", {.error = "x", .next_attempt_at = Timestamp{}}));
  ASSERT_TRUE(store_->fail(b, "relay-1", {.error = "x", .park = true}));
  EXPECT_EQ(runs(), 0);
}

TEST_F(SqliteOutboxLeaseRuns, ALeasedRowCannotBeCancelledUntilItsRunGoes) {
  const std::string a = stage();
  ASSERT_EQ(claim("relay-1"), std::vector<std::string>{a});
  EXPECT_FALSE(store_->cancel(a, SystemClock::instance().now()));
  ASSERT_TRUE(store_->fail(a, "relay-1", {.error = "x", .next_attempt_at = Timestamp{}}));
  EXPECT_TRUE(store_->cancel(a, SystemClock::instance().now()));
}

}  // namespace
}  // namespace docket::sqlite::detail
