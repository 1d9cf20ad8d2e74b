// The late-commit case on PostgreSQL, with two real concurrent transactions: an
// append holding a lower global position open (an inbox unit of work appending, as a
// handler does) while a higher one commits. The event feed consumer must not pass the
// open position; once it commits, both events are applied once, in position order.
#include <vector>

#include "projections/feed_fixture.h"

namespace docket::projection_tests {
namespace {

class FeedLateCommit : public FeedFixture<postgres::conformance::JoinDatabase> {
 protected:
  // Appends one deposit to `tenant`'s `account` now; returns its global position.
  std::int64_t append_at(const TenantId& tenant, std::string_view account) {
    return events_
        ->append(StreamId(tenant, "account", account), ExpectedVersion::any(), {deposited(1)})
        .value_or_throw()
        .events.at(0)
        .global_position;
  }

  // Runs `settings`' consumer past a committed event, holds an append open in one
  // transaction while another, at a higher position, commits, and checks that the
  // consumer waits for the open one and then applies both in position order.
  void check_late_commit(const EventFeedSettings& settings, const TenantId& early_tenant) {
    const auto before = append(acme_, "A-0", {deposited(1)});
    std::vector<std::int64_t> applied;
    before_ = [&](const RecordedEvent& e) { applied.push_back(e.global_position); };
    const auto inbox = projection();
    EventFeedConsumer consumer(*events_, inbox, settings);
    ASSERT_EQ(consumer.run_once().processed, 1u);

    auto held = inbox_store_->begin();  // transaction 1, on a connection of its own
    const std::int64_t late =
        events_
            ->append(held->handler_transaction(), StreamId(acme_, "account", "A-1"),
                     ExpectedVersion::any(), {deposited(2)})
            .value_or_throw()
            .events.at(0)
            .global_position;
    const std::int64_t early = append_at(early_tenant, "A-2");  // transaction 2 commits
    ASSERT_LT(late, early);

    const EventFeedPass while_open = consumer.run_once();
    EXPECT_EQ(while_open.read, 0u) << "the page ends before the position in flight";
    EXPECT_LE(consumer.checkpoint(), late) << "the checkpoint must not pass it";
    expect_read_model(before);

    held->commit();
    const EventFeedPass rest = drain(consumer);
    EXPECT_EQ(rest.processed, 2u);
    EXPECT_EQ(rest.skipped, 0u);
    EXPECT_EQ(applied, (std::vector<std::int64_t>{applied.at(0), late, early}));
    EXPECT_EQ(consumer.checkpoint(), early + 1);
    expect_read_model({before[0], {"acme", "A-1", 0}, {early_tenant.value(), "A-2", 0}});
  }
};

TEST_F(FeedLateCommit, AWholeFeedConsumerWaitsForTheLowerPosition) {
  check_late_commit({}, globex_);
}

TEST_F(FeedLateCommit, ATenantFilteredConsumerWaitsForTheLowerPosition) {
  check_late_commit({.tenant = acme_}, acme_);
}

}  // namespace
}  // namespace docket::projection_tests
