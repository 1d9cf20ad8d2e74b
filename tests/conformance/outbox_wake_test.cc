// Wake-ups (docket/core/wake_signal.h): on a store that wakes relays, a commit that
// staged a message notifies the store's staged signal (and a unit rolled back does
// not), and a relay or a pull consumer in the middle of a long idle wait moves at the
// commit instead of at the wait's end. On every store, a relay whose notifications are
// all lost still publishes, one idle wait later; and a store that declares no wake-ups
// gives no signal.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "claim_watching_store.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/memory/store.h"
#include "docket/outbox/pull_consumer.h"
#include "outbox_suite.h"

namespace docket::conformance {
namespace {

using namespace std::chrono_literals;

// Far longer than any test may take: a move within kPrompt is the wake's doing.
constexpr auto kLongWait = std::chrono::minutes(10);
constexpr auto kPrompt = 20s;

class WakeTest : public OutboxConformance {
 protected:
  // Relay settings whose idle wait only a wake-up (or a stop) can end in a test's time.
  static RelaySettings sleepy_relay() {
    RelaySettings settings = test_settings();
    settings.poll_interval = kLongWait;
    settings.max_poll_interval = kLongWait;
    return settings;
  }
  // The first delivery on `transport` within `wait`, acknowledged; empty when none.
  static std::string receive(InProcessTransport& transport, std::chrono::milliseconds wait) {
    auto subscription = transport.subscribe({.prefetch = 1});
    const auto delivery = subscription.next(wait);
    if (!delivery)
      return "";
    subscription.acknowledge(delivery->tag);
    return delivery->message.envelope.message_id;
  }
};

class WakingStoreTest : public WakeTest {};

TEST_P(WakeTest, AStoreHasASignalExactlyWhenItDeclaresWakeUps) {
  EXPECT_EQ(store_->staged_signal() != nullptr, GetParam().wakes_relays);
}

// The relay's polls stand in for a lost notification: it publishes one idle wait
// after the commit (two claims: the empty one before, the one that finds it).
TEST_P(WakeTest, ARelayWhoseNotificationsAreLostStillPublishesAfterAnIdleWait) {
  ClaimWatchingStore deaf(*store_, ClaimWatchingStore::kDeaf);
  RelaySettings settings = test_settings();
  settings.poll_interval = 50ms;
  settings.max_poll_interval = 50ms;
  InProcessTransport transport(100);
  Relay relay(deaf, transport, RelayOptions(settings), clock_);
  std::jthread relaying([&relay](std::stop_token stop) { relay.run(stop); });
  ASSERT_TRUE(deaf.wait_for_claims(1));
  const std::string id = stage({.event_type = "OrderPlaced", .payload = "{}"});
  EXPECT_EQ(receive(transport, kPrompt), id);
  relaying.request_stop();
  relaying.join();
  EXPECT_GE(deaf.claims().size(), 2U);
}

TEST_P(WakingStoreTest, ACommitThatStagedNotifiesTheSignalAndARollbackDoesNot) {
  const std::shared_ptr<WakeSignal> signal = store_->staged_signal();
  ASSERT_NE(signal, nullptr);
  // (On PostgreSQL the channel is the schema's: tests running at once in the test
  // database's other schemas notify none of it.)
  std::uint64_t seen = signal->count();
  {
    auto unit = store_->begin();
    outbox_->stage(unit->handler_transaction(), {.event_type = "OrderPlaced", .payload = "{}"});
    unit->flush_deferred_writes();
    // Staged, not committed: nobody may be woken for a message no relay can see yet.
    EXPECT_FALSE(signal->wait(seen, 300ms));
  }  // rolled back
  EXPECT_FALSE(signal->wait(seen, 300ms));
  stage({.event_type = "OrderPlaced", .payload = "{}"});
  EXPECT_TRUE(signal->wait(seen, kPrompt));
  // Every store of the process on the database shares one signal.
  EXPECT_EQ(store_->staged_signal(), signal);
}

TEST_P(WakingStoreTest, ARelayInALongIdleWaitPublishesAtTheCommit) {
  ClaimWatchingStore hearing(*store_, ClaimWatchingStore::kHears);
  InProcessTransport transport(100);
  Relay relay(hearing, transport, RelayOptions(sleepy_relay()), clock_);
  std::jthread relaying([&relay](std::stop_token stop) { relay.run(stop); });
  ASSERT_TRUE(hearing.wait_for_claims(1));  // found nothing: waiting kLongWait
  for (int n = 0; n < 3; ++n) {             // and again after each wake
    const std::string id = stage({.event_type = "OrderPlaced", .payload = "{}"});
    EXPECT_EQ(receive(transport, kPrompt), id) << "message " << n;
  }
  relaying.request_stop();
  relaying.join();
}

TEST_P(WakingStoreTest, APullConsumerInALongIdleWaitDispatchesAtTheCommit) {
  auto inbox = memory::open_store(clock_);
  std::mutex mutex;
  std::condition_variable handled_one;
  std::vector<std::string> handled;
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("OrderPlaced", [&](const nlohmann::json& e, HandlerContext&) {
    const std::lock_guard lock(mutex);
    handled.push_back(e.get<std::string>());
    handled_one.notify_all();
  });
  InboxDispatcher dispatcher(*inbox, InboxOptions("wake-reader"), std::move(handlers));
  PullConsumer consumer(
      *store_, dispatcher,
      {.batch_size = 10, .overlap = 10, .poll_interval = kLongWait, .max_poll_interval = kLongWait},
      clock_);
  std::jthread consuming([&consumer](std::stop_token stop) { consumer.run(stop); });
  for (std::size_t n = 1; n <= 3; ++n) {
    stage({.event_type = "OrderPlaced", .payload = "\"o" + std::to_string(n) + "\""});
    std::unique_lock lock(mutex);
    EXPECT_TRUE(handled_one.wait_for(lock, kPrompt, [&] { return handled.size() == n; }))
        << "message " << n;
  }
  consuming.request_stop();
  consuming.join();
  EXPECT_EQ(handled, (std::vector<std::string>{"o1", "o2", "o3"}));
}

INSTANTIATE_TEST_SUITE_P(AllProviders, WakeTest, ::testing::ValuesIn(all_outbox_providers()),
                         outbox_provider_name);
INSTANTIATE_TEST_SUITE_P(WakingProviders, WakingStoreTest,
                         ::testing::ValuesIn(waking_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
