// A transport carries on after its broker restarts (docket/spi/transport.h: reconnecting
// is the transport's own business), for every fixture that can restart its broker
// (registered with TransportCase::restarts_broker; for the others these tests do not exist):
//  - publishing: what comes back kRetryable is published again, as the relay would, and
//    is confirmed once the broker is back; nothing is refused, nacked or unroutable;
//  - a subscription (the same object) reconnects by itself and delivers what it held
//    unacknowledged again, flagged redelivered, and everything published before and
//    after; its acknowledgements after the reconnect hold;
//  - a consumer runner goes on across the restart, each message handled once.
// A restart takes the broker from every client, so CMakeLists.txt runs these tests by
// themselves (RUN_SERIAL), discovered apart from the rest of the suite.
#include <gtest/gtest.h>

#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "docket/inbox/handler_registry.h"
#include "docket/stores/open_store.h"
#include "docket/transports/consumer_runner.h"
#include "transport_fixture.h"

namespace docket::conformance {
namespace broker_restart_test {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// A restart and the reconnects after it take a few seconds; a test waits this long
// only when it fails.
constexpr std::chrono::seconds kAfterRestart{60};
constexpr milliseconds kWait{5000};
constexpr milliseconds kNothing{300};

TransportMessage message(const std::string& id, const std::string& destination) {
  return TransportMessage{.tenant = "acme",
                          .envelope = Envelope{.message_id = id,
                                               .event_type = "OrderPlaced",
                                               .payload = "{\"id\":\"" + id + "\"}"},
                          .destination = destination};
}

std::vector<TransportMessage> batch(const std::string& prefix, int count,
                                    const std::string& destination) {
  std::vector<TransportMessage> messages;
  for (int i = 1; i <= count; ++i)
    messages.push_back(message(prefix + "-" + std::to_string(i), destination));
  return messages;
}

class TransportBrokerRestart : public ::testing::TestWithParam<TransportCase> {
 protected:
  void SetUp() override {
    fixture_ = GetParam().make();
    destination_ = fixture_->fresh_destination();
  }

  // Publishes `messages` as the relay would: what comes back kRetryable is published
  // again until the deadline; any other failure fails the test. Returns how many
  // kRetryable answers there were; the first one's text is kept in first_retryable_.
  int publish_until_confirmed(std::vector<TransportMessage> messages) {
    int retryable = 0;
    first_retryable_.clear();
    const auto deadline = Clock::now() + kAfterRestart;
    while (!messages.empty()) {
      const auto results = fixture_->transport().publish_batch(messages);
      EXPECT_EQ(results.size(), messages.size());
      std::vector<TransportMessage> again;
      for (std::size_t i = 0; i < results.size(); ++i) {
        if (results[i].is_confirmed())
          continue;
        EXPECT_EQ(results[i].status, PublishStatus::kRetryable)
            << messages[i].envelope.message_id << ": " << results[i].error;
        if (results[i].status != PublishStatus::kRetryable)
          return retryable;
        if (retryable++ == 0)
          first_retryable_ = results[i].error;
        again.push_back(messages[i]);
      }
      if (!again.empty() && Clock::now() > deadline) {
        ADD_FAILURE() << again.size() << " messages still unconfirmed, e.g. "
                      << again.front().envelope.message_id;
        return retryable;
      }
      messages = std::move(again);
    }
    return retryable;
  }

  std::unique_ptr<TransportFixture> fixture_;
  std::string destination_;
  std::string first_retryable_;
};

TEST_P(TransportBrokerRestart, CarriesOnAfterTheBrokerRestarts) {
  for (const PublishResult& result :
       fixture_->transport().publish_batch(batch("before", 3, destination_))) {
    ASSERT_TRUE(result.is_confirmed()) << result.error;
  }
  auto subscription = fixture_->transport().subscribe(
      {.destination = destination_, .group = "conformance", .prefetch = 16});
  const auto held = subscription.next(kWait);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->message.envelope.message_id, "before-1");
  EXPECT_FALSE(held->redelivered);  // held, never acknowledged, through the restart

  fixture_->restart_broker();

  const int retried = publish_until_confirmed(batch("after", 3, destination_));
  // The first publish after a restart finds its connection closed by the broker.
  EXPECT_GE(retried, 1) << "no publish noticed the restart: did the broker restart?";

  // The same subscription reconnects by itself and delivers everything, the held one
  // again; each delivery is acknowledged on the new connection.
  std::map<std::string, Delivery> delivered;
  const auto deadline = Clock::now() + kAfterRestart;
  while (delivered.size() < 6 && Clock::now() < deadline) {
    auto delivery = subscription.next(kWait);
    if (!delivery)
      continue;
    const std::string id = delivery->message.envelope.message_id;
    EXPECT_EQ(delivery->message.envelope.payload, "{\"id\":\"" + id + "\"}");
    EXPECT_EQ(delivery->message.destination, destination_);
    subscription.acknowledge(delivery->tag);
    delivered.emplace(id, std::move(*delivery));
  }
  std::set<std::string> ids;
  for (const auto& [id, delivery] : delivered)
    ids.insert(id);
  EXPECT_EQ(ids, (std::set<std::string>{"after-1", "after-2", "after-3", "before-1", "before-2",
                                        "before-3"}));
  ASSERT_TRUE(delivered.contains("before-1"));
  EXPECT_TRUE(delivered.at("before-1").redelivered);
  EXPECT_GE(delivered.at("before-1").delivery_count, 2U);
  for (const std::string id : {"after-1", "after-2", "after-3"}) {
    if (delivered.contains(id)) {
      EXPECT_FALSE(delivered.at(id).redelivered) << id;  // published once, delivered once
    }
  }
  EXPECT_FALSE(subscription.next(kNothing).has_value());
  subscription.close();
  // The acknowledgements held: a new subscription of the group gets nothing back.
  auto after = fixture_->transport().subscribe(
      {.destination = destination_, .group = "conformance", .prefetch = 16});
  EXPECT_FALSE(after.next(kNothing).has_value());
}

TEST_P(TransportBrokerRestart, AConsumerRunnerGoesOnAcrossABrokerRestart) {
  const std::unique_ptr<InboxStore> inbox = open_inbox_store("memory:");
  std::mutex mutex;
  std::map<std::string, int> handled;  // message id -> handler runs
  HandlerRegistry handlers;
  handlers.on<nlohmann::json>("OrderPlaced", [&](const nlohmann::json& event, HandlerContext&) {
    const std::lock_guard lock(mutex);
    ++handled[event.at("id").get<std::string>()];
  });
  const InboxDispatcher billing(*inbox, InboxOptions("billing"), std::move(handlers));
  const auto handled_count = [&] {
    const std::lock_guard lock(mutex);
    return handled.size();
  };
  const auto wait_for = [&](std::size_t count) {
    const auto deadline = Clock::now() + kAfterRestart;
    while (handled_count() < count && Clock::now() < deadline)
      std::this_thread::sleep_for(milliseconds(20));
    return handled_count();
  };

  ConsumerRunnerSettings settings;
  settings.poll = milliseconds(100);
  ConsumerRunner runner(
      fixture_->transport(), billing,
      ConsumerRunnerOptions({.destination = destination_, .group = "billing", .prefetch = 4},
                            settings));
  std::exception_ptr failure;
  std::jthread consuming([&](std::stop_token stop) {
    try {
      runner.run(stop);
    } catch (...) {
      failure = std::current_exception();
    }
  });

  EXPECT_EQ(publish_until_confirmed(batch("before", 5, destination_)), 0) << first_retryable_;
  ASSERT_EQ(wait_for(5), 5U);

  fixture_->restart_broker();

  publish_until_confirmed(batch("after", 5, destination_));
  EXPECT_EQ(wait_for(10), 10U);
  consuming.request_stop();
  consuming.join();
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& error) {
      FAIL() << "the consumer runner stopped with: " << error.what();
    }
  }
  for (const auto& [id, runs] : handled)
    EXPECT_EQ(runs, 1) << id;  // the inbox: each message handled once
  EXPECT_EQ(runner.stats().processed, 10U);
}

std::string case_name(const ::testing::TestParamInfo<TransportCase>& info) {
  return info.param.name;
}

// The in-process transport has no broker; the Pub/Sub emulator keeps no topics across a
// restart. A build without the brokers that can restart has no case at all.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TransportBrokerRestart);
INSTANTIATE_TEST_SUITE_P(AllTransports, TransportBrokerRestart,
                         ::testing::ValuesIn(TransportFixtureRegistry::restarting_brokers()),
                         case_name);

}  // namespace broker_restart_test
}  // namespace docket::conformance
