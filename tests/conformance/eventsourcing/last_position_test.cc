// last_position: the head of a feed of global positions (the newest visible event's
// position, of every tenant or of one), what a consumer's lag is measured against; and
// its refusal on a store without such a feed.
#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using EventStoreLastPosition = StoreConformance;

TEST_P(EventStoreLastPosition, IsZeroOnAnEmptyStore) {
  EXPECT_EQ(events_->last_position(), 0);
  EXPECT_EQ(events_->last_position(tenant("acme")), 0);
}

TEST_P(EventStoreLastPosition, IsTheNewestEventsPositionOfEveryTenantOrOfOne) {
  append_ok(account("A-1", "acme"), ExpectedVersion::no_stream(), {event("a0"), event("a1")});
  append_ok(account("G-1", "globex"), ExpectedVersion::no_stream(), {event("g0")});
  const std::vector<RecordedEvent> all = read_everything();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(events_->last_position(), all[2].global_position);
  EXPECT_EQ(events_->last_position(tenant("acme")), all[1].global_position);
  EXPECT_EQ(events_->last_position(tenant("globex")), all[2].global_position);
  EXPECT_EQ(events_->last_position(tenant("initech")), 0);

  append_ok(account("A-1", "acme"), ExpectedVersion::exactly(1), {event("a2")});
  const std::int64_t head = events_->last_position();
  EXPECT_GT(head, all[2].global_position);
  EXPECT_EQ(events_->last_position(tenant("acme")), head);
  EXPECT_EQ(events_->last_position(tenant("globex")), all[2].global_position);
  // Caught up: a read from past the head returns nothing.
  EXPECT_TRUE(events_->read_all(head + 1, 10).events.empty());
  EXPECT_EQ(events_->read_all(head, 10).events.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreLastPosition,
                         ::testing::ValuesIn(global_feed_providers()), provider_name);

using EventStoreLastPositionRefused = StoreConformance;

TEST_P(EventStoreLastPositionRefused, WhereTheStoreHasNoFeedOfGlobalPositions) {
  EXPECT_THROW(events_->last_position(), ConfigurationError);
  EXPECT_THROW(events_->last_position(tenant("acme")), ConfigurationError);
}

// Built without a provider whose event store has no feed, nothing is instantiated.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EventStoreLastPositionRefused);
INSTANTIATE_TEST_SUITE_P(Providers, EventStoreLastPositionRefused,
                         ::testing::ValuesIn(feedless_providers()), provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
