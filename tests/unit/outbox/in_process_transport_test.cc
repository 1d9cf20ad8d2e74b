// The in-process transport: bounded, acknowledged, redelivers what was not
// acknowledged, and injects faults reproducibly from its seed.
#include "docket/transports/in_process_transport.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

namespace docket {
namespace {

using std::chrono::milliseconds;

TransportMessage message(const std::string& id) {
  return TransportMessage{"acme", Envelope{.message_id = id, .event_type = "T"}};
}

std::vector<std::string> publish_and_consume(TransportFaults faults, int count) {
  InProcessTransport transport(1000, faults);
  for (int i = 0; i < count; ++i) {
    transport.publish(message("m" + std::to_string(i)));
  }
  std::vector<std::string> seen;
  auto subscription = transport.subscribe({.prefetch = 1});
  while (auto d = subscription.next(milliseconds(0))) {
    seen.push_back(d->message.envelope.message_id + (d->redelivered ? "R" : "") +
                   (d->duplicate ? "D" : ""));
    subscription.acknowledge(d->tag);
  }
  EXPECT_TRUE(transport.idle());
  return seen;
}

TEST(InProcessTransport, WithoutFaultsDeliversEachMessageOnceInOrder) {
  EXPECT_EQ(publish_and_consume({}, 3), (std::vector<std::string>{"m0", "m1", "m2"}));
}

TEST(InProcessTransport, FaultsAreReproducibleFromTheSeedAndShowUp) {
  const TransportFaults faults{
      .drop_ack = 0.2, .duplicate = 0.2, .delay = 0.2, .reorder = 0.2, .delay_span = 3, .seed = 7};
  const auto first = publish_and_consume(faults, 200);
  EXPECT_EQ(first, publish_and_consume(faults, 200));
  TransportFaults other = faults;
  other.seed = 8;
  EXPECT_NE(first, publish_and_consume(other, 200));

  InProcessTransport transport(1000, faults);
  for (int i = 0; i < 200; ++i) {
    transport.publish(message("m" + std::to_string(i)));
  }
  std::set<std::string> ids;
  std::uint64_t first_deliveries = 0;
  std::uint64_t first_deliveries_of_duplicates = 0;
  auto subscription = transport.subscribe({.prefetch = 1});
  while (auto d = subscription.next(milliseconds(0))) {
    ids.insert(d->message.envelope.message_id);
    first_deliveries += d->redelivered ? 0 : 1;
    first_deliveries_of_duplicates += !d->redelivered && d->duplicate ? 1 : 0;
    subscription.acknowledge(d->tag);
  }
  const auto stats = transport.stats();
  EXPECT_EQ(ids.size(), 200U);  // nothing lost
  EXPECT_GT(stats.duplicates, 0U);
  EXPECT_GT(stats.redeliveries, 0U);
  EXPECT_EQ(stats.redeliveries, stats.dropped_acks);
  EXPECT_GT(stats.delayed, 0U);
  EXPECT_GT(stats.reordered, 0U);
  EXPECT_EQ(first_deliveries, 200U + first_deliveries_of_duplicates);
  EXPECT_EQ(stats.deliveries, first_deliveries + stats.redeliveries);
}

TEST(InProcessTransport, ClosingASubscriptionRedeliversWhatItHeld) {
  InProcessTransport transport(10);
  transport.publish(message("a"));
  transport.publish(message("b"));
  auto dying = transport.subscribe({});
  const auto a = dying.next(milliseconds(0)).value();
  dying.acknowledge(a.tag);
  const auto b = dying.next(milliseconds(0)).value();
  dying.close();  // the consumer dies here
  EXPECT_FALSE(transport.idle());
  auto restarted = transport.subscribe({});
  const auto again = restarted.next(milliseconds(0)).value();
  EXPECT_EQ(again.message.envelope.message_id, "b");
  EXPECT_TRUE(again.redelivered);
  EXPECT_EQ(again.delivery_count, 2U);
  restarted.acknowledge(b.tag);  // a stale tag is ignored
  EXPECT_FALSE(transport.idle());
  restarted.acknowledge(again.tag);
  EXPECT_TRUE(transport.idle());
}

TEST(InProcessTransport, PublishBlocksWhileFullUntilAReceive) {
  InProcessTransport transport(1);
  transport.publish(message("first"));
  std::thread publisher([&] { transport.publish(message("second")); });
  auto subscription = transport.subscribe({});
  const auto first = subscription.next(milliseconds(1000)).value();
  const auto second = subscription.next(milliseconds(10'000)).value();
  publisher.join();
  EXPECT_EQ(first.message.envelope.message_id, "first");
  EXPECT_EQ(second.message.envelope.message_id, "second");
}

TEST(InProcessTransport, InjectedPublishFailureAndCloseThrowTransportError) {
  InProcessTransport transport(1, {.publish_failure = 1.0});
  EXPECT_THROW(transport.publish(message("x")), TransportError);
  transport.set_faults({});
  transport.close();
  EXPECT_THROW(transport.publish(message("x")), TransportError);
  EXPECT_EQ(transport.stats().publish_failures, 2U);
  EXPECT_THROW(InProcessTransport(0), ConfigurationError);
  EXPECT_THROW(InProcessTransport(1, {.duplicate = 1.5}), ConfigurationError);
  EXPECT_THROW(transport.set_faults({.delay_span = 0}), ConfigurationError);
}

// The transport keeps a message's attempt count only while its publish has failed and
// not yet succeeded: a long run of messages leaves nothing behind (soak found the count
// kept forever, growing the transport by every message it ever took).
TEST(InProcessTransport, KeepsAttemptCountsOnlyOfMessagesAwaitingARetry) {
  InProcessTransport transport(100, {.publish_failure = 0.5, .seed = 3});
  int failures = 0;
  for (int i = 0; i < 50; ++i) {
    const TransportMessage m = message("m" + std::to_string(i));
    try {
      transport.publish(m);
    } catch (const TransportError&) {
      ++failures;
    }
  }
  ASSERT_GT(failures, 0);
  EXPECT_EQ(transport.messages_awaiting_retry(), static_cast<std::size_t>(failures));
  transport.set_faults({});
  for (int i = 0; i < 50; ++i) {  // the relay's retries, and republishes of the others
    transport.publish(message("m" + std::to_string(i)));
  }
  EXPECT_EQ(transport.messages_awaiting_retry(), 0U);
}

}  // namespace
}  // namespace docket
