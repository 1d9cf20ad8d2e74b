// A row whose transaction took its sequence first but commits last is never skipped by
// the pull consumer. The memory outbox assigns sequences at staging and shows rows at
// commit, as PostgreSQL does; the PostgreSQL provider runs this against its server.
#include <gtest/gtest.h>

#include <latch>
#include <thread>

#include "docket/inbox_dispatcher.h"
#include "docket/memory/store.h"
#include "docket/outbox.h"
#include "docket/pull_consumer.h"

namespace docket {
namespace {

TEST(LateCommit, SlowerTransactionHoldingTheLowerSequenceIsNotSkipped) {
  ManualClock clock(Timestamp(std::chrono::seconds(1'800'000'000)));
  auto feed = memory::open_outbox_store(clock);
  auto inbox = memory::open_store(clock);
  Outbox outbox(*feed, clock);
  std::vector<std::string> handled;
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("Placed", [&](const nlohmann::json& e, HandlerContext&) {
    handled.push_back(e.get<std::string>());
  });
  InboxDispatcher dispatcher(*inbox, InboxOptions("feed-reader"), std::move(handlers));
  PullConsumer consumer(*feed, dispatcher, {.batch_size = 10, .overlap = 10}, clock);

  std::latch staged(1);
  std::latch commit(1);
  std::thread slow([&] {
    auto unit = feed->begin();
    outbox.stage(unit->handler_transaction(), {.event_type = "Placed", .payload = "\"slow\""});
    staged.count_down();
    commit.wait();
    unit->commit();
  });
  staged.wait();  // the slow transaction holds sequence 1
  {
    auto unit = feed->begin();
    outbox.stage(unit->handler_transaction(), {.event_type = "Placed", .payload = "\"fast\""});
    unit->commit();  // sequence 2 is visible first
  }

  auto pass = consumer.poll();
  EXPECT_EQ(pass.processed, 1U);
  EXPECT_EQ(pass.checkpoint, 0);  // not past the invisible sequence 1
  clock.advance(std::chrono::seconds(5));
  EXPECT_EQ(consumer.poll().checkpoint, 0);

  commit.count_down();
  slow.join();
  pass = consumer.poll();
  EXPECT_EQ(pass.processed, 1U);
  EXPECT_EQ(pass.skipped, 0U);
  EXPECT_EQ(pass.checkpoint, 2);
  EXPECT_EQ(handled, (std::vector<std::string>{"fast", "slow"}));
}

TEST(LateCommit, RolledBackSequenceHoldsTheCheckpointOnlyUntilTheGapTimeout) {
  ManualClock clock(Timestamp(std::chrono::seconds(1'800'000'000)));
  auto feed = memory::open_outbox_store(clock);
  auto inbox = memory::open_store(clock);
  Outbox outbox(*feed, clock);
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("Placed", [](const nlohmann::json&, HandlerContext&) {});
  InboxDispatcher dispatcher(*inbox, InboxOptions("feed-reader"), std::move(handlers));
  PullConsumer consumer(*feed, dispatcher,
                        {.batch_size = 10, .overlap = 10, .gap_timeout = std::chrono::seconds(30)},
                        clock);
  {
    auto unit = feed->begin();
    outbox.stage(unit->handler_transaction(), {.event_type = "Placed", .payload = "1"});
  }  // rolled back: sequence 1 never appears
  {
    auto unit = feed->begin();
    outbox.stage(unit->handler_transaction(), {.event_type = "Placed", .payload = "2"});
    unit->commit();
  }
  EXPECT_EQ(consumer.poll().checkpoint, 0);
  clock.advance(std::chrono::seconds(29));
  EXPECT_EQ(consumer.poll().checkpoint, 0);
  clock.advance(std::chrono::seconds(1));
  const auto pass = consumer.poll();
  EXPECT_EQ(pass.checkpoint, 2);
  EXPECT_EQ(pass.processed, 0U);  // sequence 2 was dispatched by the first poll
}

}  // namespace
}  // namespace docket
