// The event feed consumer over a store whose only feed has opaque cursors
// (cursor_only_event_store.h, over each provider's real store): its checkpoint is
// the store's own cursor text; it resumes from it without skipping or losing an
// event, also one appended after the consumer read past the cursors of that stream,
// or one whose transaction commits after the consumer moved on; it absorbs the
// store's redeliveries as duplicates and holds its checkpoint at a failed event. And
// the refusals between feed kinds: a global position on this store, its cursor on the
// inner store, read_all here, and a decimal checkpoint under the consumer's id.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cursor_only_event_store.h"
#include "docket/core/error.h"
#include "feed_fixture.h"

namespace docket::projection_tests::feed_opaque_cursor_test {
namespace {

using MemoryDatabase = memory::conformance::JoinDatabase;

template <typename Database>
class FeedOpaqueCursor : public FeedFixture<Database> {
 protected:
  FeedOpaqueCursor() : cursor_only_(*this->events_, this->clock_) {}

  // The whole-feed checkpoint of consumer "balances", as stored.
  std::optional<std::string> stored_checkpoint() {
    const TenantScope whole_feed(TenantId::untenanted());
    return this->inbox_store_->checkpoints().get("balances");
  }

  // Runs pages until one leaves the checkpoint where it was (caught up: this store
  // redelivers, so a page is seldom empty); returns the totals.
  static EventFeedPass run_until_caught_up(EventFeedConsumer& consumer) {
    EventFeedPass total;
    for (FeedCursor before = consumer.cursor();;) {
      const EventFeedPass pass = consumer.run_once();
      total.read += pass.read;
      total.processed += pass.processed;
      total.skipped += pass.skipped;
      total.unhandled += pass.unhandled;
      total.cursor = pass.cursor;
      if (pass.cursor == before) {
        return total;
      }
      before = pass.cursor;
    }
  }

  CursorOnlyEventStore cursor_only_;
};

TYPED_TEST_SUITE(FeedOpaqueCursor, FeedJoinDatabases, JoinCaseNames);

TYPED_TEST(FeedOpaqueCursor, ResumesFromItsCheckpointWithoutSkippingOrLosingEvents) {
  const auto acme = this->append(this->acme_, "A-1", {deposited(1), deposited(2)});
  const auto globex = this->append(this->globex_, "G-1", {deposited(3)});
  const auto inbox = this->projection();
  {
    EventFeedConsumer consumer(this->cursor_only_, inbox, {.batch_size = 2});
    const EventFeedPass pass = consumer.run_once();
    EXPECT_EQ(pass.read, 2u);
    EXPECT_EQ(pass.processed, 2u);
    EXPECT_EQ(pass.cursor.scheme(), CursorOnlyEventStore::kScheme);
    EXPECT_EQ(pass.cursor, CursorOnlyEventStore::encode(this->position_of(acme[1]) + 1));
    EXPECT_EQ(pass.checkpoint, 0) << "a feed of opaque cursors has no position";
    EXPECT_EQ(this->stored_checkpoint(), pass.cursor.text()) << "the checkpoint is its text";
    EXPECT_EQ(consumer.cursor(), pass.cursor);
    EXPECT_THROW(consumer.checkpoint(), ConfigurationError);
  }  // the process restarts

  // A-1 gets another event after the consumer read past the cursors of A-1's events.
  const auto late = this->append(this->acme_, "A-1", {deposited(4)});
  EventFeedConsumer restarted(this->cursor_only_, inbox, {.batch_size = 2});
  const EventFeedPass rest = TestFixture::run_until_caught_up(restarted);
  EXPECT_EQ(rest.processed, 2u) << "G-1's event and the late one, each once";
  EXPECT_GT(rest.skipped, 0u) << "the store's redeliveries come back as duplicates";
  EXPECT_EQ(rest.cursor, CursorOnlyEventStore::encode(this->end_of_feed()));
  EXPECT_EQ(this->stored_checkpoint(), rest.cursor.text());
  this->expect_read_model(concat(concat(acme, globex), late));
  EXPECT_EQ(this->attempts_, 4) << "no handler ran twice";
}

TYPED_TEST(FeedOpaqueCursor, AFailedEventHoldsTheCheckpointAtItsOwnCursor) {
  const auto rows = this->append(this->acme_, "A-1", {deposited(1), deposited(2), deposited(3)});
  const std::int64_t poison = this->position_of(rows[1]);
  this->refuse_at(poison);
  const auto inbox = this->projection();
  EventFeedConsumer consumer(this->cursor_only_, inbox, {.batch_size = 10});
  EXPECT_THROW(consumer.run_once(), std::runtime_error);
  EXPECT_EQ(consumer.cursor(), CursorOnlyEventStore::encode(poison))
      << "the failed event's resume_at cursor";
  this->expect_read_model({rows[0]});
  EXPECT_THROW(consumer.run_once(), std::runtime_error) << "it resumes at the failed event";
  EXPECT_EQ(consumer.cursor(), CursorOnlyEventStore::encode(poison));

  this->refusing_ = false;  // the cause is fixed
  const EventFeedPass rest = TestFixture::run_until_caught_up(consumer);
  EXPECT_EQ(rest.processed, 2u);
  this->expect_read_model(rows);
  EXPECT_EQ(this->attempts_, 5);  // rows[0], two failed tries of rows[1], rows[1], rows[2]
}

TYPED_TEST(FeedOpaqueCursor, CursorsOfOneFeedKindAreRefusedByTheOther) {
  this->append(this->acme_, "A-1", {deposited(1), deposited(2)});
  try {
    this->cursor_only_.read_all(0, 10);
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the cursor-only event store cannot read every stream in one order "
                        "(its feed has opaque cursors)"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("read_feed"), std::string::npos) << what;
  }
  try {
    this->cursor_only_.read_feed(FeedCursor::at_position(2), 10);
    ADD_FAILURE() << "expected InvalidInputError";
  } catch (const InvalidInputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("feed has opaque cursors, and this is a global position"),
              std::string::npos)
        << what;
  }
  EXPECT_THROW(this->cursor_only_.read_feed(FeedCursor::parse("testwrap1:at-02"), 10),
               InvalidInputError)
      << "its own scheme, not as it writes it";
  EXPECT_FALSE(this->cursor_only_.accepts_cursor(FeedCursor::parse("testwrap1:xyz")));

  const FeedPage page = this->cursor_only_.read_feed(FeedCursor::start(), 10);
  ASSERT_EQ(page.events.size(), 2u);
  EXPECT_EQ(page.events, this->events_->read_all(0, 10).events) << "the inner store's events";
  EXPECT_FALSE(this->events_->accepts_cursor(page.next));
  EXPECT_THROW(this->events_->read_feed(page.next, 10), InvalidInputError);
}

TYPED_TEST(FeedOpaqueCursor, ADecimalCheckpointUnderItsIdIsRefusedAndNothingRuns) {
  this->append(this->acme_, "A-1", {deposited(1)});
  {
    const TenantScope whole_feed(TenantId::untenanted());
    this->inbox_store_->checkpoints().set("balances", "3");  // a global-position feed's
  }
  const auto inbox = this->projection();
  EventFeedConsumer consumer(this->cursor_only_, inbox);
  try {
    consumer.run_once();
    ADD_FAILURE() << "expected ConfigurationError";
  } catch (const ConfigurationError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'3' is not a cursor of the cursor-only event store's feed "
                        "(opaque cursors)"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("its own id"), std::string::npos) << what;
  }
  EXPECT_EQ(this->attempts_, 0);
}

// A memory unit of work holds an append open (it does not lock the database, unlike
// SQLite's BEGIN IMMEDIATE, so the consumer runs meanwhile) while another commits and
// the consumer moves past it; the held event, committed then, is still delivered.
class FeedOpaqueCursorHeldAppend : public FeedOpaqueCursor<MemoryDatabase> {};

TEST_F(FeedOpaqueCursorHeldAppend, AnEventCommittedAfterTheConsumerMovedOnIsDelivered) {
  const auto before = append(acme_, "A-0", {deposited(1)});
  const auto inbox = projection();
  EventFeedConsumer consumer(cursor_only_, inbox, {.batch_size = 10});
  ASSERT_EQ(consumer.run_once().processed, 1u);

  auto held = inbox_store_->begin();
  cursor_only_
      .append(held->handler_transaction(), StreamId(acme_, "account", "A-1"),
              ExpectedVersion::any(), {deposited(2)})
      .value_or_throw();
  const auto early = append(globex_, "G-1", {deposited(3)});
  const FeedCursor past_early = run_until_caught_up(consumer).cursor;
  expect_read_model(concat(before, early));

  held->commit();
  const EventFeedPass rest = run_until_caught_up(consumer);
  EXPECT_EQ(rest.processed, 1u);
  EXPECT_NE(rest.cursor, past_early);
  expect_read_model(concat(concat(before, early), {{"acme", "A-1", 0}}));
  EXPECT_EQ(attempts_, 3);
}

}  // namespace
}  // namespace docket::projection_tests::feed_opaque_cursor_test
