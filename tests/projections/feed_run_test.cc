// EventFeedConsumer::run: pages until stopped, on a thread of its own, waiting for new
// events once caught up; a failure ends it with the checkpoint before the failed event.
// Every provider of FeedJoinDatabases; no sleeps: latches counted down by the handler.
#include <chrono>
#include <exception>
#include <latch>
#include <stdexcept>
#include <stop_token>
#include <thread>

#include "feed_fixture.h"

namespace docket::projection_tests {
namespace {

template <typename Database>
class FeedRun : public FeedFixture<Database> {};

TYPED_TEST_SUITE(FeedRun, FeedJoinDatabases, JoinCaseNames);

TYPED_TEST(FeedRun, RunsUntilStoppedAndPicksUpEventsAppendedWhileItWaits) {
  const auto first = this->append(this->acme_, "A-1", {deposited(1), deposited(2), deposited(3)});
  std::latch caught_up(3);
  std::latch later_applied(1);
  this->before_ = [&](const RecordedEvent& e) {
    (e.stream.aggregate_id() == "A-1" ? caught_up : later_applied).count_down();
  };
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox,
                             {.batch_size = 2, .poll_interval = std::chrono::milliseconds(1)});
  std::exception_ptr failure;
  std::jthread runner([&](std::stop_token stop) {
    try {
      consumer.run(stop);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  caught_up.wait();
  const auto later = this->append(this->globex_, "A-2", {deposited(4)});
  later_applied.wait();
  runner.request_stop();
  runner.join();

  EXPECT_EQ(failure, nullptr);
  EXPECT_EQ(this->attempts_, 4);
  EXPECT_EQ(consumer.checkpoint(), this->end_of_feed());
  this->expect_read_model(concat(first, later));
}

// Wake-ups: every store of this suite hears appends (memory and SQLite in-process,
// PostgreSQL through its trigger's NOTIFY), and an append ends an idle wait far longer
// than the test may take.
TYPED_TEST(FeedRun, AnAppendEndsALongIdleWaitAtTheAppend) {
  ASSERT_NE(this->events_->appended_signal(), nullptr);
  std::latch first_applied(1);
  std::latch second_applied(1);
  this->before_ = [&](const RecordedEvent& e) {
    (e.stream.aggregate_id() == "A-1" ? first_applied : second_applied).count_down();
  };
  const auto inbox = this->projection();
  const auto forever = std::chrono::minutes(10);
  EventFeedConsumer consumer(*this->events_, inbox,
                             {.poll_interval = forever, .max_poll_interval = forever});
  std::jthread runner([&](std::stop_token stop) { consumer.run(stop); });
  const auto first = this->append(this->acme_, "A-1", {deposited(1)});
  first_applied.wait();  // its page was read: the next append needs another page
  const auto second = this->append(this->acme_, "A-2", {deposited(2)});
  second_applied.wait();  // within the test's timeout: the wait of 10 minutes was ended
  runner.request_stop();
  runner.join();
  this->expect_read_model(concat(first, second));
}

TYPED_TEST(FeedRun, AFailureEndsRunWithTheCheckpointBeforeTheFailedEvent) {
  const auto rows = this->append(this->acme_, "A-1", {deposited(1), deposited(2), deposited(3)});
  const std::int64_t poison = this->position_of(rows[2]);
  this->refuse_at(poison);
  const auto inbox = this->projection();
  EventFeedConsumer consumer(*this->events_, inbox, {.batch_size = 2});
  std::stop_source never;
  EXPECT_THROW(consumer.run(never.get_token()), std::runtime_error);
  EXPECT_EQ(consumer.checkpoint(), poison);
  this->expect_read_model({rows[0], rows[1]});
}

}  // namespace
}  // namespace docket::projection_tests
