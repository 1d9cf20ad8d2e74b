// read_all: the store-wide feed in global position order, with limits and a
// next_position that a consumer checkpoints.
#include <set>

#include "docket/core/error.h"
#include "suite.h"

namespace docket::conformance::eventsourcing {
namespace {

using EventStoreReadAll = StoreConformance;

TEST_P(EventStoreReadAll, ReturnsEveryStreamInPositionOrder) {
  append_ok(account("A-1"), ExpectedVersion::no_stream(), {event("a0"), event("a1")});
  append_ok(account("B-1"), ExpectedVersion::no_stream(), {event("b0")});
  append_ok(account("A-1"), ExpectedVersion::exactly(1), {event("a2")});

  const std::vector<RecordedEvent> all = read_everything();
  ASSERT_EQ(all.size(), 4u);
  const std::vector<std::string> order{"a0", "a1", "b0", "a2"};
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].type, order[i]);
    if (i > 0) {
      EXPECT_LT(all[i - 1].global_position, all[i].global_position);
    }
  }
  EXPECT_EQ(all[2].stream, account("B-1"));
  EXPECT_EQ(all[3].version, 2);
}

TEST_P(EventStoreReadAll, PagesByLimitAndContinuesFromNextPosition) {
  for (int i = 0; i < 7; ++i) {
    append_ok(account("A-" + std::to_string(i)), ExpectedVersion::no_stream(),
              {event("e" + std::to_string(i))});
  }
  ReadAllPage first = events_->read_all(0, 3);
  ASSERT_EQ(first.events.size(), 3u);
  EXPECT_EQ(first.next_position, first.events.back().global_position + 1);
  ReadAllPage second = events_->read_all(first.next_position, 3);
  ASSERT_EQ(second.events.size(), 3u);
  EXPECT_EQ(second.events[0].type, "e3");
  ReadAllPage third = events_->read_all(second.next_position, 3);
  ASSERT_EQ(third.events.size(), 1u);
  EXPECT_EQ(third.events[0].type, "e6");
  ReadAllPage end = events_->read_all(third.next_position, 3);
  EXPECT_TRUE(end.events.empty());
  EXPECT_EQ(end.next_position, third.next_position);  // the checkpoint stays put

  append_ok(account("A-0"), ExpectedVersion::exactly(0), {event("late")});
  ReadAllPage after = events_->read_all(end.next_position, 3);
  ASSERT_EQ(after.events.size(), 1u);
  EXPECT_EQ(after.events[0].type, "late");
}

TEST_P(EventStoreReadAll, FromAPositionIsInclusive) {
  append_ok(account("A-1"), ExpectedVersion::no_stream(), {event("e0"), event("e1")});
  const auto all = read_everything();
  ASSERT_EQ(all.size(), 2u);
  const ReadAllPage page = events_->read_all(all[1].global_position, 10);
  ASSERT_EQ(page.events.size(), 1u);
  EXPECT_EQ(page.events[0].event_id, all[1].event_id);
}

TEST_P(EventStoreReadAll, PageSizesDoNotChangeWhatIsRead) {
  for (int i = 0; i < 25; ++i) {
    append_ok(account("A-" + std::to_string(i % 4)), ExpectedVersion::any(),
              {event("e" + std::to_string(i))});
  }
  const auto whole = read_everything(1000);
  for (std::size_t page_size : {1u, 2u, 7u, 25u}) {
    const auto paged = read_everything(page_size);
    ASSERT_EQ(paged.size(), whole.size()) << page_size;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      EXPECT_EQ(paged[i].event_id, whole[i].event_id) << page_size;
    }
  }
}

TEST_P(EventStoreReadAll, RefusesBadArguments) {
  EXPECT_THROW(events_->read_all(-1, 10), InvalidInputError);
  EXPECT_THROW(events_->read_all(0, 0), InvalidInputError);
  EXPECT_THROW(events_->read_all(0, kMaxReadAllLimit + 1), InvalidInputError);
  EXPECT_NO_THROW(events_->read_all(0, kMaxReadAllLimit));
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreReadAll, ::testing::ValuesIn(global_feed_providers()),
                         provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing
