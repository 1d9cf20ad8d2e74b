// read_feed on a feed of global positions: the events and order of read_all, a cursor
// per event that reads it again, the next cursor that read_all's next_position is (so
// a checkpoint of either parses as the other), the late-commit contract through
// cursors, and refusals: another kind's cursor, bad limits, a store without a feed.
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/feed_cursor.h"
#include "suite.h"

namespace docket::conformance::eventsourcing::read_feed_test {
namespace {

// Every event from `after` on, by read_feed pages of `limit`; `last` gets the next
// cursor of the final (empty) page.
std::vector<RecordedEvent> read_feed_to_end(EventStore& store, FeedCursor after, std::size_t limit,
                                            FeedCursor* last = nullptr) {
  std::vector<RecordedEvent> all;
  for (FeedPage page = store.read_feed(after, limit); !page.events.empty();
       page = store.read_feed(after, limit)) {
    EXPECT_LE(page.events.size(), limit);
    all.insert(all.end(), page.events.begin(), page.events.end());
    after = page.next;
  }
  if (last != nullptr) {
    *last = after;
  }
  return all;
}

std::vector<Uuid> ids(const std::vector<RecordedEvent>& events) {
  std::vector<Uuid> out;
  for (const RecordedEvent& e : events) {
    out.push_back(e.event_id);
  }
  return out;
}

class EventStoreReadFeed : public StoreConformance {
 protected:
  // Seven events over four streams of two tenants.
  void append_seven() {
    for (int i = 0; i < 7; ++i) {
      append_ok(account("A-" + std::to_string(i % 4), i % 2 == 0 ? "acme" : "globex"),
                ExpectedVersion::any(), {event("e" + std::to_string(i))});
    }
  }
};

TEST_P(EventStoreReadFeed, StatesGlobalPositionsAndAcceptsTheirCursors) {
  EXPECT_EQ(events_->capabilities().feed, FeedKind::kGlobalPositions);
  EXPECT_TRUE(events_->accepts_cursor(FeedCursor::start()));
  EXPECT_TRUE(events_->accepts_cursor(FeedCursor::at_position(12)));
  EXPECT_FALSE(events_->accepts_cursor(FeedCursor::opaque("otherstore1", "12")));
}

TEST_P(EventStoreReadFeed, ReadsWhatReadAllReadsWithACursorPerEvent) {
  append_seven();
  const std::vector<RecordedEvent> all = read_everything();
  ASSERT_EQ(all.size(), 7u);
  for (const std::size_t limit : {1u, 3u, 7u, 100u}) {
    EXPECT_EQ(ids(read_feed_to_end(*events_, FeedCursor::start(), limit)), ids(all)) << limit;
  }

  FeedCursor after = FeedCursor::start();
  std::int64_t next_position = 0;
  for (int page_number = 0; page_number < 3; ++page_number) {
    const FeedPage page = events_->read_feed(after, 3);
    const ReadAllPage expected = events_->read_all(next_position, 3);
    ASSERT_EQ(page.events, expected.events) << page_number;
    ASSERT_EQ(page.resume_at.size(), page.events.size());
    for (std::size_t i = 0; i < page.events.size(); ++i) {
      EXPECT_EQ(page.resume_at[i], FeedCursor::at_position(page.events[i].global_position));
    }
    EXPECT_EQ(page.next, FeedCursor::at_position(expected.next_position));
    after = page.next;
    next_position = expected.next_position;
  }
}

TEST_P(EventStoreReadFeed, AResumeCursorReadsItsEventAgainAndWhatFollows) {
  append_seven();
  const FeedPage page = events_->read_feed(FeedCursor::start(), 7);
  ASSERT_EQ(page.events.size(), 7u);
  for (std::size_t i = 0; i < page.events.size(); ++i) {
    const std::vector<RecordedEvent> rest = read_feed_to_end(*events_, page.resume_at[i], 2);
    ASSERT_EQ(rest.size(), page.events.size() - i) << i;
    EXPECT_EQ(rest.front().event_id, page.events[i].event_id) << i;
  }
}

TEST_P(EventStoreReadFeed, AnEmptyPageKeepsItsCursorAndLaterEventsFollowIt) {
  append_seven();
  FeedCursor end;
  read_feed_to_end(*events_, FeedCursor::start(), 4, &end);
  const FeedPage empty = events_->read_feed(end, 4);
  EXPECT_TRUE(empty.events.empty());
  EXPECT_TRUE(empty.resume_at.empty());
  EXPECT_EQ(empty.next, end) << "the checkpoint stays put";

  append_ok(account("A-0"), ExpectedVersion::any(), {event("late")});
  const FeedPage after = events_->read_feed(end, 4);
  ASSERT_EQ(after.events.size(), 1u);
  EXPECT_EQ(after.events[0].type, "late");
}

TEST_P(EventStoreReadFeed, ATenantFilterReadsThatTenantOnly) {
  append_seven();
  std::vector<std::string> acme;
  FeedCursor after = FeedCursor::start();
  for (FeedPage page = events_->read_feed(after, 2, tenant("acme")); !page.events.empty();
       page = events_->read_feed(after, 2, tenant("acme"))) {
    for (const RecordedEvent& e : page.events) {
      EXPECT_EQ(e.stream.tenant(), tenant("acme"));
      acme.push_back(e.type);
    }
    after = page.next;
  }
  EXPECT_EQ(acme, (std::vector<std::string>{"e0", "e2", "e4", "e6"}));
  EXPECT_TRUE(events_->read_feed(FeedCursor::start(), 10, tenant("initech")).events.empty());
}

TEST_P(EventStoreReadFeed, AReadAllCheckpointIsACursorOfThisFeedAndBack) {
  append_seven();
  const ReadAllPage first = events_->read_all(0, 4);
  const FeedCursor cursor = FeedCursor::parse(std::to_string(first.next_position));
  const FeedPage rest = events_->read_feed(cursor, 10);
  EXPECT_EQ(rest.events, events_->read_all(first.next_position, 10).events);
  ASSERT_EQ(rest.events.size(), 3u);
  EXPECT_EQ(events_->read_all(*rest.resume_at[1].position(), 10).events.front(), rest.events[1]);
}

TEST_P(EventStoreReadFeed, RefusesAnotherKindsCursorAndBadLimits) {
  append_seven();
  try {
    events_->read_feed(FeedCursor::opaque("otherstore1", "12"), 10);
    FAIL() << "no refusal";
  } catch (const InvalidInputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'otherstore1:12'"), std::string::npos) << message;
    EXPECT_NE(message.find("feed has global positions"), std::string::npos) << message;
    EXPECT_NE(message.find("scheme 'otherstore1'"), std::string::npos) << message;
    EXPECT_NE(message.find("resumes only the feed that gave it"), std::string::npos) << message;
  }
  EXPECT_THROW(events_->read_feed(FeedCursor::start(), 0), InvalidInputError);
  EXPECT_THROW(events_->read_feed(FeedCursor::start(), kMaxReadAllLimit + 1), InvalidInputError);
  EXPECT_EQ(events_->read_feed(FeedCursor::start(), kMaxReadAllLimit).events.size(), 7u);
}

INSTANTIATE_TEST_SUITE_P(Providers, EventStoreReadFeed,
                         ::testing::ValuesIn(global_feed_providers()), provider_name);

// The late-commit contract of global positions holds through cursors: a consumer that
// resumes from each page's next cursor never skips the position that commits late.
using EventStoreReadFeedLateCommit = StoreConformance;

TEST_P(EventStoreReadFeedLateCommit, ACursorNeverPassesAPositionInFlight) {
  append_ok(account("A-0"), ExpectedVersion::no_stream(), {event("before")});
  const FeedCursor checkpoint = events_->read_feed(FeedCursor::start(), 10).next;

  auto pending = fixture_->begin_pending_append(*events_, account("A-1"), event("late"));
  append_ok(account("A-2"), ExpectedVersion::no_stream(), {event("early")});

  const FeedPage while_open = events_->read_feed(checkpoint, 10);
  for (const RecordedEvent& e : while_open.events) {
    EXPECT_NE(e.type, "early") << "read_feed passed a position that was still in flight";
  }

  pending->commit();
  std::vector<std::string> seen;
  for (const RecordedEvent& e : while_open.events) {
    seen.push_back(e.type);
  }
  for (const RecordedEvent& e : read_feed_to_end(*events_, while_open.next, 10)) {
    seen.push_back(e.type);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"late", "early"}));
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EventStoreReadFeedLateCommit);
INSTANTIATE_TEST_SUITE_P(Providers, EventStoreReadFeedLateCommit,
                         ::testing::ValuesIn(late_commit_providers()), provider_name);

}  // namespace
}  // namespace docket::conformance::eventsourcing::read_feed_test
