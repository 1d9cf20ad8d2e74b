// Retention deletes done rows only, older than the cutoff, in bounded batches; the
// pull consumer reads the outbox as a feed through an inbox, resuming from its
// checkpoint.
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/outbox/pull_consumer.h"
#include "docket/stores/open_store.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

class OutboxRetentionFeedTest : public OutboxConformance {};

TEST_P(OutboxRetentionFeedTest, PurgesOnlyDoneRowsOlderThanTheCutoffInBoundedBatches) {
  InProcessTransport transport(1000);
  Relay relay(*store_, transport, RelayOptions(test_settings()), clock_);
  const auto old_ids = stage_orders(25, "old-");
  while (relay.run_once().claimed > 0) {
  }
  clock_.advance(std::chrono::hours(1));
  const auto new_ids = stage_orders(3, "new-");
  while (relay.run_once().claimed > 0) {
  }
  const auto pending = stage_orders(2, "pending-");

  EXPECT_EQ(store_->purge_done_batch(clock_.now(), 10), 10U);   // one batch is bounded
  EXPECT_EQ(outbox_->purge_done_before(clock_.now(), 4), 15U);  // the rest, 4 at a time
  EXPECT_EQ(outbox_->purge_done_before(clock_.now(), 4), 0U);
  for (const auto& id : old_ids) {
    EXPECT_EQ(store_->find(id), std::nullopt);
  }
  for (const auto& id : new_ids) {
    EXPECT_EQ(store_->find(id)->status, OutboxStatus::kDone);
  }
  for (const auto& id : pending) {
    EXPECT_EQ(store_->find(id)->status, OutboxStatus::kPending);
  }
  EXPECT_THROW(outbox_->purge_done_before(clock_.now(), 0), InvalidInputError);
}

TEST_P(OutboxRetentionFeedTest, SequencesAreNotReusedAfterTheHighestRowsArePurged) {
  InProcessTransport transport(1000);
  Relay relay(*store_, transport, RelayOptions(test_settings()), clock_);
  stage_orders(3);
  const std::int64_t highest = store_->read_feed(0, 10).back().sequence;
  relay.run_once();
  clock_.advance(std::chrono::seconds(1));
  EXPECT_EQ(outbox_->purge_done_before(clock_.now()), 3U);
  const auto next = stage_orders(1, "next-");
  EXPECT_GT(store_->find(next[0])->sequence, highest);
}

TEST_P(OutboxRetentionFeedTest, PullConsumerDispatchesEachRowOnceAndResumes) {
  auto inbox = open_inbox_store("memory:", clock_);
  HandlerRegistry handlers;
  int handled = 0;
  handlers.on<nlohmann::json>("OrderPlaced",
                              [&](const nlohmann::json&, HandlerContext&) { ++handled; });
  InboxDispatcher dispatcher(*inbox, InboxOptions("billing-feed"), std::move(handlers));
  const auto ids = stage_orders(12);
  const auto feed = store_->read_feed(0, 100);

  PullConsumer consumer(*store_, dispatcher, {.batch_size = 5, .overlap = 3}, clock_);
  auto pass = consumer.poll();
  EXPECT_EQ(pass.processed, 5U);
  EXPECT_EQ(pass.checkpoint, feed[4].sequence);
  EXPECT_EQ(inbox->checkpoints().get("billing-feed"), std::to_string(feed[4].sequence));

  PullConsumer restarted(*store_, dispatcher, {.batch_size = 5, .overlap = 3}, clock_);
  pass = restarted.poll();
  EXPECT_EQ(pass.read, 8U);  // 3 re-read behind the checkpoint, 5 new
  EXPECT_EQ(pass.processed, 5U);
  pass = restarted.poll();
  EXPECT_EQ(pass.processed, 2U);
  EXPECT_EQ(pass.checkpoint, feed.back().sequence);
  EXPECT_EQ(restarted.poll().processed, 0U);
  EXPECT_EQ(handled, 12);
}

// Issue 37, point 3: two pull consumers of one consumer id, polled under different
// tenant scopes, dispatch an untenanted row under one dedup key (untenanted), not each
// under its ambient tenant: the handler runs once per row.
TEST_P(OutboxRetentionFeedTest, PullConsumersUnderDifferentScopesHandleAnUntenantedRowOnce) {
  auto inbox = open_inbox_store("memory:", clock_);
  HandlerRegistry handlers;
  int handled = 0;
  std::vector<std::string> tenants_seen;
  handlers.on<nlohmann::json>("OrderPlaced", [&](const nlohmann::json&, HandlerContext&) {
    ++handled;
    tenants_seen.push_back(TenantScope::current_or_untenanted().value());
  });
  InboxDispatcher dispatcher(*inbox, InboxOptions("billing-feed"), std::move(handlers));
  stage_orders(4);  // outside any scope: untenanted rows
  for (const char* tenant : {"acme", "globex"}) {
    const TenantScope scope(TenantId{tenant});
    PullConsumer consumer(*store_, dispatcher, {.batch_size = 10, .overlap = 3}, clock_);
    consumer.poll();
  }
  EXPECT_EQ(handled, 4);
  EXPECT_EQ(tenants_seen, std::vector<std::string>(4, std::string(kUntenantedSentinel)));
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxRetentionFeedTest,
                         ::testing::ValuesIn(all_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
