// A row whose transaction took its sequence first but commits last is never skipped by
// the pull consumer: two real concurrent transactions, the slower holding the lower
// sequence. Run on the providers whose sequences can commit out of order (assigned at
// staging, visible at commit): memory and PostgreSQL. SQLite serialises writers, so
// there the second transaction could not stage while the first is open.
#include <gtest/gtest.h>

#include <latch>
#include <thread>

#include "docket/inbox/inbox_dispatcher.h"
#include "docket/memory/store.h"
#include "docket/outbox/pull_consumer.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

class LateCommitTest : public OutboxConformance {};

TEST_P(LateCommitTest, SlowerTransactionHoldingTheLowerSequenceIsNotSkipped) {
  auto inbox = memory::open_store(clock_);
  std::vector<std::string> handled;
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("Placed", [&](const nlohmann::json& e, HandlerContext&) {
    handled.push_back(e.get<std::string>());
  });
  InboxDispatcher dispatcher(*inbox, InboxOptions("feed-reader"), std::move(handlers));
  PullConsumer consumer(*store_, dispatcher, {.batch_size = 10, .overlap = 10}, clock_);

  std::latch staged(1);
  std::latch commit(1);
  std::thread slow([&] {
    auto unit = store_->begin();
    outbox_->stage(unit->handler_transaction(), {.event_type = "Placed", .payload = "\"slow\""});
    unit->flush_deferred_writes();  // the insert has taken its sequence
    staged.count_down();
    commit.wait();
    unit->commit();
  });
  staged.wait();  // the slow transaction holds sequence 1
  {
    auto unit = store_->begin();
    outbox_->stage(unit->handler_transaction(), {.event_type = "Placed", .payload = "\"fast\""});
    unit->commit();  // sequence 2 is visible first
  }

  auto pass = consumer.poll();
  EXPECT_EQ(pass.processed, 1U);
  EXPECT_EQ(pass.checkpoint, 0);  // not past the invisible sequence 1
  clock_.advance(std::chrono::seconds(5));
  EXPECT_EQ(consumer.poll().checkpoint, 0);

  commit.count_down();
  slow.join();
  pass = consumer.poll();
  EXPECT_EQ(pass.processed, 1U);
  EXPECT_EQ(pass.skipped, 0U);
  EXPECT_EQ(pass.checkpoint, 2);
  EXPECT_EQ(handled, (std::vector<std::string>{"fast", "slow"}));
}

TEST_P(LateCommitTest, RolledBackSequenceHoldsTheCheckpointOnlyUntilTheGapTimeout) {
  auto inbox = memory::open_store(clock_);
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("Placed", [](const nlohmann::json&, HandlerContext&) {});
  InboxDispatcher dispatcher(*inbox, InboxOptions("feed-reader"), std::move(handlers));
  PullConsumer consumer(*store_, dispatcher,
                        {.batch_size = 10, .overlap = 10, .gap_timeout = std::chrono::seconds(30)},
                        clock_);
  {
    auto unit = store_->begin();
    outbox_->stage(unit->handler_transaction(), {.event_type = "Placed", .payload = "1"});
    unit->flush_deferred_writes();  // the insert has taken its sequence
  }                                 // rolled back: sequence 1 never appears
  {
    auto unit = store_->begin();
    outbox_->stage(unit->handler_transaction(), {.event_type = "Placed", .payload = "2"});
    unit->commit();
  }
  EXPECT_EQ(consumer.poll().checkpoint, 0);
  clock_.advance(std::chrono::seconds(29));
  EXPECT_EQ(consumer.poll().checkpoint, 0);
  clock_.advance(std::chrono::seconds(1));
  const auto pass = consumer.poll();
  EXPECT_EQ(pass.checkpoint, 2);
  EXPECT_EQ(pass.processed, 0U);  // sequence 2 was dispatched by the first poll
}

INSTANTIATE_TEST_SUITE_P(ConcurrentCommitProviders, LateCommitTest,
                         ::testing::ValuesIn(concurrent_commit_outbox_providers()),
                         outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
