// OutboxStore::stats on every outbox provider: every message counted once, in the class
// its status and times put it in (due, in backoff, scheduled, parked, done, skipped,
// cancelled), per destination (the default route counted under the event type), and
// the oldest due message's staging time; a scheduled message counts as due once its
// time has come. And OutboxStore::list, the listing by status beside the counts.
#include <chrono>

#include "outbox_suite.h"

namespace docket::conformance {
namespace {

using namespace std::chrono_literals;

class OutboxStatsTest : public OutboxConformance {
 protected:
  // Claims the due row `id` alone (every due row is claimed, the others failed back).
  void claim_only(const std::string& id) {
    for (const OutboxRecord& row : store_->claim("stats", clock_.now(), clock_.now() + 30s, 100)) {
      if (row.id != id) {
        ASSERT_TRUE(
            store_->fail(row.id, "stats", {.error = "not now", .next_attempt_at = clock_.now()}));
      }
    }
  }
};

TEST_P(OutboxStatsTest, EveryMessageIsCountedOnceInItsClassAndDestination) {
  const Timestamp first_staged = clock_.now();
  stage({.event_type = "OrderPlaced", .payload = "{}", .destination = "orders"});  // due
  clock_.advance(1s);
  stage({.event_type = "OrderPlaced", .payload = "{}"});  // due, default route
  const std::string scheduled = stage({.event_type = "ReminderDue",
                                       .payload = "{}",
                                       .destination = "reminders",
                                       .deliver_at = clock_.now() + 1h});
  const std::string cancelled = stage({.event_type = "ReminderDue",
                                       .payload = "{}",
                                       .destination = "reminders",
                                       .deliver_at = clock_.now() + 1h});
  ASSERT_EQ(outbox_->cancel(cancelled), CancelOutcome::kCancelled);
  const std::string backoff =
      stage({.event_type = "OrderShipped", .payload = "{}", .destination = "shipping"});
  const std::string parked =
      stage({.event_type = "OrderShipped", .payload = "{}", .destination = "shipping"});
  const std::string skipped =
      stage({.event_type = "OrderShipped", .payload = "{}", .destination = "shipping"});
  const std::string done =
      stage({.event_type = "OrderShipped", .payload = "{}", .destination = "shipping"});
  // Give each of the last four its status through the relay's own calls, one at a time,
  // every other due message failed back untouched (still due: next attempt now).
  claim_only(backoff);
  ASSERT_TRUE(store_->fail(backoff, "stats",
                           {.error = "broker down", .next_attempt_at = clock_.now() + 1min}));
  claim_only(parked);
  ASSERT_TRUE(store_->fail(parked, "stats", {.error = "refused", .park = true}));
  claim_only(skipped);
  ASSERT_TRUE(store_->fail(skipped, "stats", {.error = "refused", .park = true}));
  ASSERT_TRUE(store_->skip(skipped, clock_.now()));
  claim_only(done);
  ASSERT_TRUE(store_->complete(done, "stats", clock_.now()));

  const OutboxStats stats = store_->stats(clock_.now());
  EXPECT_EQ(stats.total, (OutboxCounts{.due = 2,
                                       .in_backoff = 1,
                                       .scheduled = 1,
                                       .parked = 1,
                                       .done = 1,
                                       .skipped = 1,
                                       .cancelled = 1}));
  EXPECT_EQ(stats.total.pending(), 4U);
  ASSERT_EQ(stats.by_destination.size(), 4U);
  EXPECT_EQ(stats.by_destination.at("orders"), (OutboxCounts{.due = 1}));
  EXPECT_EQ(stats.by_destination.at("OrderPlaced"), (OutboxCounts{.due = 1}));
  EXPECT_EQ(stats.by_destination.at("reminders"), (OutboxCounts{.scheduled = 1, .cancelled = 1}));
  EXPECT_EQ(stats.by_destination.at("shipping"),
            (OutboxCounts{.in_backoff = 1, .parked = 1, .done = 1, .skipped = 1}));
  EXPECT_EQ(stats.oldest_due_created_at, first_staged);

  // Later: the scheduled message and the one in backoff are due.
  const OutboxStats later = store_->stats(clock_.now() + 2h);
  EXPECT_EQ(later.total.due, 4U);
  EXPECT_EQ(later.total.scheduled, 0U);
  EXPECT_EQ(later.total.in_backoff, 0U);
  EXPECT_EQ(store_->find(scheduled)->status, OutboxStatus::kPending);
}

// OutboxStore::list: one status's rows in sequence order, a page at a time, to the end.
TEST_P(OutboxStatsTest, ListReadsOneStatusInSequenceOrderAPageAtATime) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i)
    ids.push_back(stage({.event_type = "OrderPlaced", .payload = "{}"}));
  ASSERT_EQ(outbox_->cancel(ids[1]), CancelOutcome::kCancelled);
  ASSERT_EQ(outbox_->cancel(ids[3]), CancelOutcome::kCancelled);
  const auto ids_of = [](const std::vector<OutboxRecord>& rows) {
    std::vector<std::string> out;
    for (const OutboxRecord& row : rows)
      out.push_back(row.id);
    return out;
  };
  EXPECT_EQ(ids_of(store_->list(OutboxStatus::kCancelled, 0, 10)),
            (std::vector<std::string>{ids[1], ids[3]}));
  std::vector<std::string> pending;
  std::int64_t after = 0;
  for (std::vector<OutboxRecord> page = store_->list(OutboxStatus::kPending, after, 2);
       !page.empty(); page = store_->list(OutboxStatus::kPending, after, 2)) {
    ASSERT_LE(page.size(), 2U);
    for (const OutboxRecord& row : page) {
      EXPECT_EQ(row.status, OutboxStatus::kPending);
      pending.push_back(row.id);
      after = row.sequence;
    }
  }
  EXPECT_EQ(pending, (std::vector<std::string>{ids[0], ids[2], ids[4]}));
  EXPECT_TRUE(store_->list(OutboxStatus::kDone, 0, 10).empty());
}

TEST_P(OutboxStatsTest, AnEmptyOutboxCountsNothing) {
  const OutboxStats stats = store_->stats(clock_.now());
  EXPECT_EQ(stats.total, OutboxCounts{});
  EXPECT_TRUE(stats.by_destination.empty());
  EXPECT_FALSE(stats.oldest_due_created_at.has_value());
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxStatsTest, ::testing::ValuesIn(all_outbox_providers()),
                         outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
