// The consumer runner over every registered transport and a memory inbox: it
// acknowledges only after the commit (a runner killed between commit and ack leaves a
// redelivery the inbox skips), returns a failing message with backoff and dead-letters
// it after max_deliveries, bounds what it holds, and on stop finishes or returns it.
#include "docket/transports/consumer_runner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/core/json_codec.h"
#include "docket/inbox/handler_registry.h"
#include "docket/sqlite/store.h"
#include "docket/stores/open_store.h"
#include "transport_fixture.h"

namespace docket::conformance {
namespace consumer_runner_test {

using std::chrono::milliseconds;

class ConsumerRunnerTest : public ::testing::TestWithParam<TransportCase> {
 protected:
  void SetUp() override {
    fixture_ = GetParam().make();
    destination_ = fixture_->fresh_destination();
    inbox_ = open_inbox_store("memory:");
  }

  InboxDispatcher dispatcher(std::function<void(const std::string& id)> on_message) {
    HandlerRegistry handlers;
    handlers.on<nlohmann::json>("OrderPlaced",
                                [on_message](const nlohmann::json& event, HandlerContext&) {
                                  on_message(event.at("id").get<std::string>());
                                });
    return InboxDispatcher(*inbox_, InboxOptions("billing"), std::move(handlers));
  }

  void publish(int count) {
    std::vector<TransportMessage> batch;
    for (int i = 0; i < count; ++i) {
      const std::string id = "m" + std::to_string(i);
      batch.push_back({.tenant = "acme",
                       .envelope = {.message_id = id,
                                    .event_type = "OrderPlaced",
                                    .payload = "{\"id\":\"" + id + "\"}"},
                       .destination = destination_});
    }
    for (const PublishResult& r : fixture_->transport().publish_batch(batch)) {
      ASSERT_TRUE(r.is_confirmed()) << r.error;
    }
  }

  ConsumerRunnerOptions options(ConsumerRunnerSettings settings = {}, std::size_t prefetch = 8) {
    settings.poll = milliseconds(200);
    settings.retry_base = std::chrono::milliseconds(1);
    settings.retry_cap = std::chrono::milliseconds(5);
    return ConsumerRunnerOptions(
        {.destination = destination_, .group = "billing", .prefetch = prefetch}, settings);
  }

  std::unique_ptr<TransportFixture> fixture_;
  std::string destination_;
  std::unique_ptr<InboxStore> inbox_;
};

TEST_P(ConsumerRunnerTest, AKillBetweenCommitAndAckIsRedeliveredAsASkippedDuplicate) {
  publish(1);
  std::atomic<int> handled = 0;
  const InboxDispatcher billing = dispatcher([&](const std::string&) { ++handled; });
  {
    ConsumerRunnerSettings dies;
    dies.on_committed = [](const Delivery&, DispatchOutcome) {
      throw std::runtime_error("killed between commit and ack");
    };
    ConsumerRunner doomed(fixture_->transport(), billing, options(dies));
    EXPECT_THROW(doomed.run_once(), std::runtime_error);
  }
  EXPECT_EQ(handled.load(), 1);  // committed once
  ConsumerRunner restarted(fixture_->transport(), billing, options());
  EXPECT_EQ(restarted.run_once(), 1U);
  EXPECT_EQ(restarted.stats().skipped_duplicates, 1U);
  EXPECT_EQ(restarted.stats().processed, 0U);
  EXPECT_EQ(handled.load(), 1);         // the redelivery ran no handler
  EXPECT_EQ(restarted.run_once(), 0U);  // acknowledged: not delivered again
}

TEST_P(ConsumerRunnerTest, ReturnsAFailingMessageThenDeadLettersItWithTheLastError) {
  publish(1);
  std::atomic<int> attempts = 0;
  const InboxDispatcher billing = dispatcher([&](const std::string&) {
    throw std::runtime_error("attempt " + std::to_string(++attempts) + " failed");
  });
  ConsumerRunnerSettings settings;
  settings.max_deliveries = 3;
  ConsumerRunner runner(fixture_->transport(), billing, options(settings));
  while (runner.stats().dead_lettered == 0 && attempts < 10) {
    runner.run_once();
  }
  EXPECT_EQ(attempts.load(), 3);
  EXPECT_EQ(runner.stats().returned, 2U);
  EXPECT_EQ(runner.stats().dead_lettered, 1U);
  auto dead = fixture_->transport().subscribe(
      {.destination = fixture_->transport().dead_letter_destination(destination_)});
  const auto letter = dead.next(milliseconds(5000)).value();
  EXPECT_EQ(letter.message.envelope.message_id, "m0");
  bool named = false;
  for (const MessageHeader& h : letter.message.headers) {
    named = named || (h.name == kDeadLetterErrorHeader && h.value == "attempt 3 failed");
  }
  EXPECT_TRUE(named);
}

// The inbox's store is down (another connection holds SQLite's write lock past the busy
// timeout) for more deliveries than max_deliveries allows: each is returned, none counts,
// and once the store is back the handler still has its max_deliveries attempts.
TEST_P(ConsumerRunnerTest, AStoreOutageReturnsDeliveriesWithoutCountingThem) {
  publish(1);
  const eventsourcing::TempDir dir;
  auto store = sqlite::open_store(
      {.path = dir.file("inbox.db"), .busy_timeout = std::chrono::milliseconds(20)});
  store->migrate();
  std::atomic<int> attempts = 0;
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("OrderPlaced", [&](const nlohmann::json&, HandlerContext&) {
    if (++attempts == 1) {
      throw std::runtime_error("the first attempt fails");
    }
  });
  const InboxDispatcher billing(*store, InboxOptions("billing"), std::move(handlers));
  ConsumerRunnerSettings settings;
  settings.max_deliveries = 2;
  ConsumerRunner runner(fixture_->transport(), billing, options(settings));
  {
    auto holder = sqlite::open_store({.path = dir.file("inbox.db")});
    const auto lock = holder->begin();  // BEGIN IMMEDIATE: the inbox's store is down
    for (int pass = 0; pass < 100 && runner.stats().store_failures < 4; ++pass) {
      runner.run_once();
    }
  }
  EXPECT_EQ(runner.stats().store_failures, 4U);
  EXPECT_EQ(runner.stats().dead_lettered, 0U);
  EXPECT_EQ(attempts.load(), 0);
  for (int pass = 0; pass < 100 && runner.stats().processed + runner.stats().dead_lettered == 0;
       ++pass) {
    runner.run_once();
  }
  EXPECT_EQ(attempts.load(), 2);  // the failed attempt counted as the first of two
  EXPECT_EQ(runner.stats().returned, 1U);
  EXPECT_EQ(runner.stats().processed, 1U);
  EXPECT_EQ(runner.stats().dead_lettered, 0U);
}

TEST_P(ConsumerRunnerTest, CountsAndAcknowledgesAMessageNoHandlerTakesWhenToldToMarkIt) {
  std::vector<TransportMessage> batch{
      {.tenant = "acme",
       .envelope = {.message_id = "u-1", .event_type = "StockCounted", .payload = "{}"},
       .destination = destination_}};
  for (const PublishResult& r : fixture_->transport().publish_batch(batch)) {
    ASSERT_TRUE(r.is_confirmed()) << r.error;
  }
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("OrderPlaced", [](const nlohmann::json&, HandlerContext&) {});
  const InboxDispatcher marking(
      *inbox_,
      InboxOptions("billing", DedupCheck::kBeforeHandlers, nullptr, UnhandledTypes::kMarkProcessed),
      std::move(handlers));
  ConsumerRunner runner(fixture_->transport(), marking, options());
  EXPECT_EQ(runner.run_once(), 1U);
  EXPECT_EQ(runner.stats().unhandled, 1U);
  EXPECT_EQ(runner.stats().processed, 0U);
  EXPECT_EQ(runner.stats().returned, 0U);
  EXPECT_EQ(runner.run_once(), 0U) << "acknowledged: not delivered again";
}

TEST_P(ConsumerRunnerTest, HoldsNoMoreThanItsPrefetch) {
  publish(10);
  const InboxDispatcher billing = dispatcher([](const std::string&) {});
  ConsumerRunner runner(fixture_->transport(), billing, options({}, 3));
  std::size_t total = 0;
  while (total < 10) {
    const std::size_t took = runner.run_once();
    ASSERT_GT(took, 0U);
    EXPECT_LE(took, 3U);
    total += took;
  }
  EXPECT_EQ(runner.stats().max_held, 3U);
  EXPECT_EQ(runner.stats().processed, 10U);
}

TEST_P(ConsumerRunnerTest, OnStopReturnsWhatItHoldsUnhandledOrFinishesIt) {
  publish(4);
  std::atomic<int> handled = 0;
  std::stop_source stop;
  const InboxDispatcher billing = dispatcher([&](const std::string&) {
    ++handled;
    stop.request_stop();  // stop arrives while the first of four is being handled
  });
  ConsumerRunnerSettings returning;
  returning.finish_on_stop = false;
  ConsumerRunner runner(fixture_->transport(), billing, options(returning, 4));
  // It takes what has arrived, up to its prefetch: all four, except where the broker
  // pushes them (RabbitMQ) and the last had not arrived when the first was taken.
  const std::size_t took = runner.run_once(stop.get_token());
  EXPECT_GE(took, 1U);
  EXPECT_LE(took, 4U);
  EXPECT_EQ(handled.load(), 1);
  EXPECT_EQ(runner.stats().returned_on_stop, took - 1) << "every one held after the stop";

  std::stop_source later;
  ConsumerRunner finishing(fixture_->transport(), billing, options({}, 4));
  std::jthread consuming([&](std::stop_token token) { finishing.run(token); });
  while (finishing.stats().processed < 3) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  consuming.request_stop();
  consuming.join();
  EXPECT_EQ(handled.load(), 4);  // the three returned ones, each handled once
}

std::string case_name(const ::testing::TestParamInfo<TransportCase>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(AllTransports, ConsumerRunnerTest,
                         ::testing::ValuesIn(TransportFixtureRegistry::all()), case_name);

}  // namespace consumer_runner_test
}  // namespace docket::conformance
