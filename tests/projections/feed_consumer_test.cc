// The event feed consumer (docket/projections/event_feed_consumer.h) builds a read model exactly
// once per event: across restarts, after a crash between a page's commit and its
// checkpoint, and around a failing event, which holds the checkpoint until it is
// processed. Runs on every provider of FeedJoinDatabases (memory, SQLite, PostgreSQL).
#include <stdexcept>
#include <string>
#include <vector>

#include "feed_fixture.h"

namespace docket::projection_tests {
namespace {

template <typename Database>
class FeedConsumer : public FeedFixture<Database> {};

TYPED_TEST_SUITE(FeedConsumer, FeedJoinDatabases, JoinCaseNames);

TYPED_TEST(FeedConsumer, BuildsTheReadModelOncePerEventAcrossRestarts) {
  const auto acme = this->append(this->acme_, "A-1", {deposited(1), deposited(2)});
  const auto first = concat(acme, this->append(this->globex_, "G-1", {deposited(3)}));
  const auto more = this->append(this->acme_, "A-2", {deposited(4), deposited(5)});
  const auto inbox = this->projection();
  {
    EventFeedConsumer consumer(*this->events_, inbox, {.batch_size = 2});
    const EventFeedPass pass = consumer.run_once();
    EXPECT_EQ(pass.read, 2u);
    EXPECT_EQ(pass.processed, 2u);
    EXPECT_EQ(pass.checkpoint, this->position_of(first[1]) + 1);
    EXPECT_EQ(consumer.checkpoint(), pass.checkpoint);
  }  // the process restarts

  EventFeedConsumer restarted(*this->events_, inbox, {.batch_size = 2});
  const EventFeedPass rest = TestFixture::drain(restarted);
  EXPECT_EQ(rest.read, 3u) << "it resumes at its checkpoint";
  EXPECT_EQ(rest.processed, 3u);
  EXPECT_EQ(rest.skipped, 0u);
  EXPECT_EQ(restarted.checkpoint(), this->end_of_feed());
  this->expect_read_model(concat(first, more));

  const auto later = this->append(this->globex_, "G-1", {deposited(6)});
  EventFeedConsumer again(*this->events_, inbox);
  const EventFeedPass pass = again.run_once();
  EXPECT_EQ(pass.read, 1u) << "only the event appended since";
  EXPECT_EQ(pass.processed, 1u);
  EXPECT_EQ(again.run_once().read, 0u);
  this->expect_read_model(concat(concat(first, more), later));
  EXPECT_EQ(this->attempts_, 6);
}

TYPED_TEST(FeedConsumer, ARereadAfterACrashBeforeTheCheckpointSkipsDuplicates) {
  const auto rows =
      this->append(this->acme_, "A-1", {deposited(1), deposited(2), deposited(3), deposited(4)});
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox, {.batch_size = 2});
  const std::int64_t after_page_1 = consumer.run_once().checkpoint;
  consumer.run_once();
  // A crash after page 2 committed and before its checkpoint was written leaves the
  // checkpoint of page 1 behind: put it back there.
  {
    const TenantScope whole_feed(TenantId::untenanted());
    this->inbox_store_->checkpoints().set("balances", std::to_string(after_page_1));
  }

  EventFeedConsumer restarted(*this->events_, inbox, {.batch_size = 2});
  const EventFeedPass reread = restarted.run_once();
  EXPECT_EQ(reread.read, 2u);
  EXPECT_EQ(reread.skipped, 2u) << "page 2 is re-read and skipped, not applied again";
  EXPECT_EQ(reread.processed, 0u);
  EXPECT_EQ(reread.checkpoint, this->end_of_feed());
  EXPECT_EQ(this->attempts_, 4) << "no handler ran for a duplicate";
  this->expect_read_model(rows);
}

TYPED_TEST(FeedConsumer, AFailingEventHoldsTheCheckpointAndProcessingResumesThere) {
  const auto rows = this->append(
      this->acme_, "A-1",
      {deposited(1), deposited(2), deposited(3), deposited(4), deposited(5), deposited(6)});
  const std::int64_t poison = this->position_of(rows[3]);
  this->refuse_at(poison);
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox, {.batch_size = 3});
  EXPECT_EQ(consumer.run_once().processed, 3u);

  // Page 2 fails at its first event: nothing after it is dispatched.
  EXPECT_THROW(consumer.run_once(), std::runtime_error);
  EXPECT_EQ(consumer.checkpoint(), poison) << "the checkpoint stops before the failed event";
  EXPECT_EQ(this->attempts_, 4) << "the events after the failed one did not run";
  this->expect_read_model({rows[0], rows[1], rows[2]});

  EXPECT_THROW(consumer.run_once(), std::runtime_error) << "it is not skipped on retry";
  EXPECT_EQ(consumer.checkpoint(), poison);

  this->refusing_ = false;  // the cause is fixed
  const EventFeedPass pass = consumer.run_once();
  EXPECT_EQ(pass.read, 3u);
  EXPECT_EQ(pass.processed, 3u);
  EXPECT_EQ(pass.checkpoint, this->end_of_feed());
  this->expect_read_model(rows);
}

TYPED_TEST(FeedConsumer, AFailureMidPageKeepsTheEventsBeforeItAndTheCheckpointAtIt) {
  const auto rows =
      this->append(this->acme_, "A-1", {deposited(1), deposited(2), deposited(3), deposited(4)});
  const std::int64_t poison = this->position_of(rows[2]);
  this->refuse_at(poison);
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox, {.batch_size = 10});
  EXPECT_THROW(consumer.run_once(), std::runtime_error);
  EXPECT_EQ(consumer.checkpoint(), poison);
  this->expect_read_model({rows[0], rows[1]});

  this->refusing_ = false;
  const EventFeedPass pass = consumer.run_once();
  EXPECT_EQ(pass.read, 2u) << "the page starts at the failed event";
  EXPECT_EQ(pass.processed, 2u);
  this->expect_read_model(rows);
}

TYPED_TEST(FeedConsumer, EventsWithoutAHandlerArePassedOverAndCounted) {
  const auto head = this->append(this->acme_, "A-1", {deposited(1), audited()});
  const auto rows = concat(head, this->append(this->acme_, "A-1", {audited(), deposited(2)}));
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox);
  const EventFeedPass pass = consumer.run_once();
  EXPECT_EQ(pass.read, 4u);
  EXPECT_EQ(pass.processed, 2u);
  EXPECT_EQ(pass.unhandled, 2u);
  EXPECT_EQ(pass.checkpoint, this->end_of_feed()) << "the checkpoint passes them";
  this->expect_read_model({rows[0], rows[3]});
  for (const RecordedEvent& e : this->events_->read_all(0, 10).events) {
    EXPECT_EQ(this->inbox_store_->is_recorded(DedupKey{"acme", "balances", e.event_id.to_string()}),
              e.type == kDeposited)
        << "nothing is recorded for an event no handler takes";
  }
}

}  // namespace
}  // namespace docket::projection_tests
