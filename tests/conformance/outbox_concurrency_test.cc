// Several relays on one store, on real threads started together: no message is ever
// being published by two relays at the same moment, and together they publish every
// message exactly once (no lease expires: the manual clock stands still).
#include <barrier>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "outbox_suite.h"

namespace docket::conformance {
namespace {

// Passes publishes on to an in-process transport and records, per message, how many
// publishes of it are in progress at once and how many completed.
class WatchingTransport final : public Transport {
 public:
  explicit WatchingTransport(Transport& inner) : inner_(inner) {}

  void publish(const TransportMessage& message) override {
    const std::string& id = message.envelope.message_id;
    {
      std::lock_guard lock(mutex_);
      if (!in_flight_.insert(id).second) {
        ++overlaps_;
      }
    }
    std::this_thread::yield();  // widen the window another relay would have to hit
    inner_.publish(message);
    std::lock_guard lock(mutex_);
    in_flight_.erase(id);
    ++published_[id];
  }

  std::mutex mutex_;
  std::set<std::string> in_flight_;
  std::map<std::string, int> published_;
  int overlaps_ = 0;

 private:
  Transport& inner_;
};

class OutboxConcurrencyTest : public OutboxConformance {};

TEST_P(OutboxConcurrencyTest, RelaysNeverPublishOneMessageConcurrentlyAndLoseNothing) {
  constexpr std::size_t kMessages = 300;
  constexpr int kRelays = 4;
  const auto ids = stage_orders(kMessages);
  InProcessTransport channel(kMessages);
  WatchingTransport watching(channel);
  RelaySettings settings = test_settings();
  settings.batch_size = 7;

  std::barrier start(kRelays);
  std::vector<std::size_t> claimed(kRelays, 0);
  std::vector<std::thread> relays;
  for (int r = 0; r < kRelays; ++r) {
    relays.emplace_back([&, r] {
      Relay relay(*store_, watching, RelayOptions(settings), clock_);
      start.arrive_and_wait();
      for (;;) {
        const RelayPass pass = relay.run_once();
        claimed[r] += pass.claimed;
        if (pass.claimed == 0) {
          return;  // the others hold (and will finish) whatever is left
        }
      }
    });
  }
  for (auto& t : relays) {
    t.join();
  }

  EXPECT_EQ(watching.overlaps_, 0);
  EXPECT_EQ(watching.published_.size(), kMessages);
  for (const auto& id : ids) {
    EXPECT_EQ(watching.published_[id], 1) << id;
    EXPECT_EQ(store_->find(id)->status, OutboxStatus::kDone);
  }
  std::size_t total = 0;
  for (const std::size_t c : claimed) {
    total += c;
  }
  EXPECT_EQ(total, kMessages);
  EXPECT_EQ(drain(channel).size(), kMessages);
}

INSTANTIATE_TEST_SUITE_P(AllProviders, OutboxConcurrencyTest,
                         ::testing::ValuesIn(all_outbox_providers()), outbox_provider_name);

}  // namespace
}  // namespace docket::conformance
