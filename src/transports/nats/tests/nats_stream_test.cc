// What JetStream itself brings to the transport, on the real server: the duplicate
// window drops a second publish of a message id (a relay's re-publish) before any
// consumer sees it; a subscription's in-progress acknowledgements keep a held delivery
// from being redelivered past AckWait while the holder lives; a consumer's MaxDeliver
// ends in docket's dead-letter destination with the last error; publishers and
// subscribers that start at once, each declaring the stream, all find it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <barrier>
#include <chrono>
#include <thread>

#include "docket/nats/transport.h"
#include "transports/nats/tests/nats_server_fixture.h"

namespace docket::nats::detail::test {
namespace {

using std::chrono::milliseconds;

class NatsStream : public NatsServerTest {
 protected:
  void SetUp() override {
    NatsServerTest::SetUp();
    prefix_ = entity_name("s");
    destination_ = prefix_ + ".placed";
  }
  std::string url(std::string_view extra = "") {
    return url_text(*url_.user, entity_name("stream"), prefix_ + ".>", extra);
  }
  TransportMessage message(std::string_view id) {
    return TransportMessage{
        .tenant = "acme",
        .envelope =
            Envelope{.message_id = std::string(id), .event_type = "OrderPlaced", .payload = "{}"},
        .destination = destination_};
  }
  std::string prefix_;
  std::string destination_;
};

TEST_F(NatsStream, TheDuplicateWindowDropsARepublishBeforeAnyConsumerSeesIt) {
  NatsTransport transport(url());
  ASSERT_TRUE(transport.publish_batch(std::vector{message("m-1")})[0].is_confirmed());
  // The relay publishes again what it could not mark done: confirmed, and stored once.
  ASSERT_TRUE(
      transport.publish_batch(std::vector{message("m-1"), message("m-2")})[0].is_confirmed());
  auto subscription = transport.subscribe({.destination = destination_, .group = "billing"});
  std::vector<std::string> ids;
  while (auto delivery = subscription.next(milliseconds(500))) {
    ids.push_back(delivery->message.envelope.message_id);
    subscription.acknowledge(delivery->tag);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"m-1", "m-2"}));
}

TEST_F(NatsStream, AHeldDeliveryIsKeptInProgressPastAckWaitThenReturnedOnClose) {
  NatsTransport transport(url("&ack_wait=300ms"));
  ASSERT_TRUE(transport.publish_batch(std::vector{message("m-1")})[0].is_confirmed());
  auto holder = std::make_unique<Subscription>(
      transport.subscribe({.destination = destination_, .group = "billing"}));
  const auto held = holder->next(milliseconds(5000));
  ASSERT_TRUE(held.has_value());
  auto other = transport.subscribe({.destination = destination_, .group = "billing"});
  // Six AckWaits: without the holder's in-progress acknowledgements the server would
  // have redelivered it to `other` long before.
  EXPECT_FALSE(other.next(milliseconds(1800)).has_value());
  holder.reset();  // closed unacknowledged: returned at once
  const auto again = other.next(milliseconds(5000));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->message.envelope.message_id, "m-1");
  EXPECT_EQ(again->delivery_count, 2U);
  EXPECT_TRUE(again->redelivered);
  other.acknowledge(again->tag);
}

TEST_F(NatsStream, AReturnOnTheConsumersLastDeliveryIsDeadLetteredWithItsError) {
  NatsTransport transport(url("&max_deliver=2"));
  ASSERT_TRUE(transport.publish_batch(std::vector{message("poison")})[0].is_confirmed());
  auto subscription = transport.subscribe({.destination = destination_, .group = "billing"});
  for (int n = 1; n <= 2; ++n) {
    const auto delivery = subscription.next(milliseconds(5000));
    ASSERT_TRUE(delivery.has_value()) << "delivery " << n;
    subscription.return_with_delay(delivery->tag, milliseconds(0), "boom " + std::to_string(n));
  }
  EXPECT_FALSE(subscription.next(milliseconds(300)).has_value());
  auto dead = transport.subscribe(
      {.destination = transport.dead_letter_destination(destination_), .group = "operators"});
  const auto letter = dead.next(milliseconds(5000));
  ASSERT_TRUE(letter.has_value());
  EXPECT_EQ(letter->message.envelope.message_id, "poison");
  EXPECT_THAT(letter->message.headers,
              ::testing::Contains(MessageHeader{std::string(kDeadLetterErrorHeader), "boom 2"}));
  EXPECT_THAT(letter->message.headers,
              ::testing::Contains(MessageHeader{std::string(kDeadLetterDeliveriesHeader), "2"}));
}

// A relay and its consumers start together: each declares the stream it does not find,
// at the same moment. Whoever loses the race finds the winner's stream and goes on;
// nobody's first publish or subscription fails for it.
TEST_F(NatsStream, ClientsDeclaringOneStreamAtOnceAllFindIt) {
  constexpr int kClients = 8;
  for (int round = 0; round < 20; ++round) {
    prefix_ = entity_name("race" + std::to_string(round));
    destination_ = prefix_ + ".placed";
    const std::string shared =
        url_text(*url_.user, entity_name("stream" + std::to_string(round)), prefix_ + ".>");
    std::barrier start(kClients);
    std::vector<std::string> failures(kClients);
    std::vector<std::jthread> clients;
    for (int i = 0; i < kClients; ++i) {
      clients.emplace_back([&, i] {
        NatsTransport transport(shared);
        start.arrive_and_wait();
        try {
          if (i % 2 == 0) {
            const PublishResult result =
                transport.publish_batch(std::vector{message("m-" + std::to_string(i))})[0];
            if (!result.is_confirmed())
              failures[i] = result.error;
          } else {  // one consumer group for every subscriber: its declaration races too
            auto subscription =
                transport.subscribe({.destination = destination_, .group = "billing"});
          }
        } catch (const std::exception& error) {
          failures[i] = error.what();
        }
      });
    }
    clients.clear();
    for (int i = 0; i < kClients; ++i)
      EXPECT_EQ(failures[i], "") << "round " << round << ", client " << i;
  }
}

}  // namespace
}  // namespace docket::nats::detail::test
