// The Pub/Sub transport against the emulator at DOCKET_TEST_PUBSUB_URL
// (scripts/pubsub-start.sh): bad input (the server down, a topic or subscription that
// does not exist when creation is not allowed, a message over the limit, a malformed
// URL) gets a clear error and writes nothing; a batch over Pub/Sub's 1000 messages a
// request is split and confirmed whole; delivery counts come from Pub/Sub's
// deliveryAttempt (the emulator honours the dead-letter policy's count); a held
// message's deadline is extended while its handler runs long.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "docket/core/error.h"
#include "docket/pubsub/transport.h"
#include "transports/pubsub/pubsub_client.h"

namespace docket::pubsub {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kWait{5000};
constexpr milliseconds kNothing{300};

std::string emulator_url() {
  const char* url = std::getenv("DOCKET_TEST_PUBSUB_URL");
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        "DOCKET_TEST_PUBSUB_URL is not set: export "
        "DOCKET_TEST_PUBSUB_URL=$(scripts/pubsub-start.sh)");
  }
  return url;
}

TransportMessage message(const std::string& id, const std::string& destination,
                         std::size_t payload_bytes = 0) {
  TransportMessage m{.tenant = "acme",
                     .envelope = Envelope{.message_id = id,
                                          .event_type = "OrderPlaced",
                                          .payload = "{\"id\":\"" + id + "\"}"},
                     .destination = destination};
  if (payload_bytes > 0)
    m.envelope.payload.assign(payload_bytes, 'x');
  return m;
}

class PubSubEmulatorTest : public ::testing::Test {
 protected:
  PubSubEmulatorTest() {
    static std::atomic<int> next{0};
    prefix_ = "dkt-test-" + std::to_string(::getpid()) + "-" + std::to_string(++next) + "-";
  }
  ~PubSubEmulatorTest() override {
    // Deletes what the test made, under its prefix.
    const detail::Client admin(detail::parse_pubsub_url(emulator_url()));
    for (const std::string kind : {"subscriptions", "topics"}) {
      const auto listed =
          admin.call("GET", admin.url().project_path() + "/" + kind + "?pageSize=1000", nullptr,
                     kit::http::Replay::kSafe, "listing");
      for (const auto& item : listed.body.value(kind, nlohmann::json::array())) {
        const std::string name = item.value("name", "");
        if (name.find("/" + kind + "/" + prefix_) != std::string::npos)
          admin.call("DELETE", name, nullptr, kit::http::Replay::kSafe, "deleting");
      }
    }
  }
  std::string url(const std::string& options = "") const {
    return emulator_url() + "&topic_prefix=" + prefix_ + options;
  }
  std::string prefix_;
};

TEST_F(PubSubEmulatorTest, AServerThatIsDownLeavesEveryMessageRetryableAndNamesTheServer) {
  PubSubTransport down("pubsub://127.0.0.1:1?project=docket-test");
  const auto results = down.publish_batch(std::vector{message("m1", "orders")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRetryable);
  EXPECT_NE(results[0].error.find("m1"), std::string::npos) << results[0].error;
  EXPECT_NE(results[0].error.find("127.0.0.1:1"), std::string::npos) << results[0].error;
  EXPECT_NE(results[0].error.find("pubsub-start.sh"), std::string::npos) << results[0].error;
  try {
    down.subscribe({.destination = "orders", .group = "billing"});
    FAIL() << "subscribed to a server that is down";
  } catch (const TransportError& error) {
    EXPECT_NE(std::string(error.what()).find("orders"), std::string::npos) << error.what();
  }
}

TEST_F(PubSubEmulatorTest, WithoutCreateAMissingTopicOrSubscriptionIsNamedAndNothingIsMade) {
  PubSubTransport checking(url("&create=false"));
  try {
    checking.subscribe({.destination = "orders", .group = "billing"});
    FAIL() << "subscribed where nothing exists";
  } catch (const ConfigurationError& error) {
    EXPECT_NE(std::string(error.what()).find(prefix_ + "orders-billing"), std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("create=false"), std::string::npos) << error.what();
  }
  const auto results = checking.publish_batch(std::vector{message("m1", "orders")});
  EXPECT_EQ(results[0].status, PublishStatus::kUnroutable) << results[0].error;
  // The owner creates the subscription; the checking transport then uses it.
  PubSubTransport owner(url());
  owner.declare_group("orders", "billing");
  EXPECT_TRUE(checking.publish_batch(std::vector{message("m2", "orders")})[0].is_confirmed());
  auto subscription = checking.subscribe({.destination = "orders", .group = "billing"});
  const auto delivery = subscription.next(kWait).value();
  EXPECT_EQ(delivery.message.envelope.message_id, "m2");  // m1 was never sent
  subscription.acknowledge(delivery.tag);
}

TEST_F(PubSubEmulatorTest, AMessageOverTheLimitIsRefusedBeforeSendingAndTheRestGoOn) {
  PubSubTransport transport(url("&max_message_size=1000"));
  transport.declare_group("orders", "billing");
  const auto results = transport.publish_batch(
      std::vector{message("big", "orders", 1001), message("fine", "orders")});
  EXPECT_EQ(results[0].status, PublishStatus::kRefused);
  EXPECT_NE(results[0].error.find("big"), std::string::npos) << results[0].error;
  EXPECT_NE(results[0].error.find("max_message_size"), std::string::npos) << results[0].error;
  EXPECT_TRUE(results[1].is_confirmed()) << results[1].error;
  auto subscription = transport.subscribe({.destination = "orders", .group = "billing"});
  EXPECT_EQ(subscription.next(kWait).value().message.envelope.message_id, "fine");
  EXPECT_FALSE(subscription.next(kNothing).has_value());
}

TEST_F(PubSubEmulatorTest, AMalformedUrlIsRefusedNamingWhatIsWrong) {
  try {
    PubSubTransport bad("pubsub://127.0.0.1:28500?project=p&ack_deadline=5");
    FAIL() << "accepted";
  } catch (const ConfigurationError& error) {
    EXPECT_NE(std::string(error.what()).find("ack_deadline"), std::string::npos);
  }
}

TEST_F(PubSubEmulatorTest, ABatchOverAThousandMessagesIsSplitAndConfirmedWhole) {
  PubSubTransport transport(url());
  transport.declare_group("orders", "billing");
  std::vector<TransportMessage> batch;
  for (int i = 0; i < 1500; ++i)
    batch.push_back(message("m" + std::to_string(i), "orders"));
  for (const PublishResult& result : transport.publish_batch(batch))
    ASSERT_TRUE(result.is_confirmed()) << result.error;
  auto subscription =
      transport.subscribe({.destination = "orders", .group = "billing", .prefetch = 500});
  std::size_t received = 0;
  while (auto delivery = subscription.next(milliseconds(2000))) {
    ++received;
    subscription.acknowledge(delivery->tag);
  }
  EXPECT_EQ(received, 1500U);
}

TEST_F(PubSubEmulatorTest, DeliveryCountsComeFromPubSubsDeliveryAttempt) {
  // Two transport objects share no counts of their own: the second can know the
  // message was delivered before only from Pub/Sub's deliveryAttempt.
  PubSubTransport first(url());
  first.declare_group("orders", "billing");
  ASSERT_TRUE(first.publish_batch(std::vector{message("m1", "orders")})[0].is_confirmed());
  {
    auto dying = first.subscribe({.destination = "orders", .group = "billing"});
    EXPECT_EQ(dying.next(kWait).value().delivery_count, 1U);
  }
  PubSubTransport second(url());
  auto subscription = second.subscribe({.destination = "orders", .group = "billing"});
  const auto again = subscription.next(kWait).value();
  EXPECT_EQ(again.delivery_count, 2U);
  EXPECT_TRUE(again.redelivered);
  subscription.acknowledge(again.tag);
}

TEST_F(PubSubEmulatorTest, AHeldMessagesDeadlineIsExtendedWhileItsHandlerRunsLong) {
  PubSubTransport transport(url("&ack_deadline=10"));
  transport.declare_group("orders", "billing");
  ASSERT_TRUE(transport.publish_batch(std::vector{message("slow", "orders")})[0].is_confirmed());
  auto holder = transport.subscribe({.destination = "orders", .group = "billing"});
  const auto held = holder.next(kWait).value();
  // A competing consumer of the group polls past the 10 s deadline: the message never
  // comes to it while it is held.
  auto rival = transport.subscribe({.destination = "orders", .group = "billing"});
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(14);
  while (std::chrono::steady_clock::now() < until)
    ASSERT_FALSE(rival.next(milliseconds(1000)).has_value()) << "redelivered while held";
  holder.acknowledge(held.tag);
  EXPECT_FALSE(rival.next(kNothing).has_value());
}

}  // namespace
}  // namespace docket::pubsub
