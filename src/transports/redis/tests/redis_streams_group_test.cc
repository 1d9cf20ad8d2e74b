// The Redis Streams transport's consumer groups on the real server, beyond the
// conformance suite: the entry's fields on the wire, trimming that never takes what a
// group has not read and acknowledged, a dead consumer's entries taken over after
// claim_idle_ms with their delivery count, dead-lettering past max_deliveries, an entry
// docket did not write, and what close() hands back to the group.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "docket/redis/transport.h"
#include "transports/redis/redis_streams_entries.h"
#include "transports/redis/tests/redis_streams_server_fixture.h"

namespace docket::redis::streams::test {
namespace {

using std::chrono::milliseconds;
using ::testing::HasSubstr;

constexpr milliseconds kWait{5000};
constexpr milliseconds kNothing{300};

std::string header_of(const TransportMessage& message, std::string_view name) {
  for (const MessageHeader& header : message.headers) {
    if (header.name == name)
      return header.value;
  }
  return "(none)";
}

class RedisStreamsGroups : public RedisStreamsServerTest {
 protected:
  long long length_of(std::string_view destination) {
    return admin().run({"XLEN", stream_of(destination)}).integer();
  }
  std::vector<std::string> consumer_names(std::string_view destination, std::string_view group) {
    const auto reply = admin().run(
        {"EVAL",
         "local names = {} for _, c in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], "
         "ARGV[1])) do table.insert(names, c[2]) end return names",
         "1", stream_of(destination), std::string(group)});
    std::vector<std::string> names;
    for (std::size_t i = 0; i < reply.size(); ++i)
      names.push_back(reply.string_at(i).value_or(""));
    return names;
  }
  // A consumer that reads one entry and dies: it never acknowledges, nor comes back.
  void dead_consumer_reads(std::string_view destination, std::string_view group) {
    const auto reply = admin().run({"XREADGROUP", "GROUP", std::string(group), "ghost", "COUNT",
                                    "1", "STREAMS", stream_of(destination), ">"});
    ASSERT_EQ(read_group_entries(reply).size(), 1U);
  }
};

TEST_F(RedisStreamsGroups, AnEntryCarriesTheOutboxIdAndTheCloudEventsAttributesAsFields) {
  StreamsTransport transport(transport_url());
  transport.declare_group("orders", "billing");
  TransportMessage sent = message("m-1", "orders");
  sent.ordering_key = "order-7";
  sent.headers = {{"x-region", "eu"}};
  sent.envelope.payload = "{\"total\":3}";
  ASSERT_TRUE(transport.publish_batch(std::vector{sent})[0].is_confirmed());
  const auto reply = admin().run({"XRANGE", stream_of("orders"), "-", "+"});
  const auto entries = claimed_entries(reply);
  ASSERT_EQ(entries.size(), 1U);
  const Fields& fields = entries[0].fields;
  ASSERT_FALSE(fields.empty());
  EXPECT_EQ(fields[0], (std::pair<std::string, std::string>{"data", "{\"total\":3}"}));
  const auto field = [&](std::string_view name) {
    for (const auto& [n, v] : fields) {
      if (n == name)
        return v;
    }
    return std::string("(none)");
  };
  EXPECT_EQ(field("ce_id"), "m-1");
  EXPECT_EQ(field("ce_specversion"), "1.0");
  EXPECT_EQ(field("ce_type"), "OrderPlaced");
  EXPECT_EQ(field("ce_tenant"), "acme");
  EXPECT_EQ(field("ce_partitionkey"), "order-7");
  EXPECT_EQ(field("x-region"), "eu");

  auto subscription = transport.subscribe({.destination = "orders", .group = "billing"});
  const auto delivery = subscription.next(kWait).value();
  EXPECT_EQ(delivery.message.envelope.message_id, "m-1");
  EXPECT_EQ(delivery.message.envelope.payload, sent.envelope.payload);
  EXPECT_EQ(delivery.message.envelope.event_type, "OrderPlaced");
  EXPECT_EQ(delivery.message.ordering_key, sent.ordering_key);
  EXPECT_EQ(delivery.message.headers, sent.headers);
  subscription.acknowledge(delivery.tag);
}

TEST_F(RedisStreamsGroups, TrimsOnlyWhatEveryGroupReadAndAcknowledged) {
  StreamsTransport transport(transport_url("&trim_interval_ms=86400000"));
  transport.declare_group("orders", "billing");
  transport.declare_group("orders", "audit");
  std::vector<TransportMessage> batch;
  for (int i = 1; i <= 10; ++i)
    batch.push_back(message("m-" + std::to_string(i), "orders"));
  for (const auto& result : transport.publish_batch(batch))
    ASSERT_TRUE(result.is_confirmed()) << result.error;
  {
    auto billing = transport.subscribe({.destination = "orders", .group = "billing"});
    for (int i = 1; i <= 6; ++i)
      billing.acknowledge(billing.next(kWait).value().tag);
    EXPECT_EQ(transport.trim("orders"), 0);  // audit has read nothing
    EXPECT_EQ(length_of("orders"), 10);
  }  // billing's 4 unacknowledged entries go back to the group, still pending
  {
    auto audit = transport.subscribe({.destination = "orders", .group = "audit"});
    for (int i = 1; i <= 10; ++i)
      audit.acknowledge(audit.next(kWait).value().tag);
  }
  EXPECT_EQ(transport.trim("orders"), 6);  // billing still needs m-7 .. m-10
  EXPECT_EQ(length_of("orders"), 4);
  auto billing = transport.subscribe({.destination = "orders", .group = "billing"});
  std::vector<std::string> again;
  while (auto delivery = billing.next(kNothing)) {
    again.push_back(delivery->message.envelope.message_id);
    billing.acknowledge(delivery->tag);
  }
  EXPECT_EQ(again, (std::vector<std::string>{"m-7", "m-8", "m-9", "m-10"}));
  EXPECT_EQ(transport.trim("orders"), 3);  // every group read all: the last one stays
  EXPECT_EQ(transport.trim("nowhere"), 0);
}

TEST_F(RedisStreamsGroups, PublishingTrimsWhatEveryGroupAcknowledged) {
  StreamsTransport transport(transport_url("&trim_interval_ms=0"));
  transport.declare_group("orders", "billing");
  std::vector<TransportMessage> batch;
  for (int i = 1; i <= 5; ++i)
    batch.push_back(message("m-" + std::to_string(i), "orders"));
  for (const auto& result : transport.publish_batch(batch))
    ASSERT_TRUE(result.is_confirmed()) << result.error;
  EXPECT_EQ(length_of("orders"), 5);  // nothing read yet: nothing trimmed
  {
    auto billing = transport.subscribe({.destination = "orders", .group = "billing"});
    for (int i = 1; i <= 5; ++i)
      billing.acknowledge(billing.next(kWait).value().tag);
  }
  ASSERT_TRUE(transport.publish_batch(std::vector{message("m-6", "orders")})[0].is_confirmed());
  // The batch's trim: m-1 .. m-4 went; m-5 (the group's last-delivered) and m-6 stay.
  EXPECT_EQ(length_of("orders"), 2);
  StreamsTransport untrimmed(transport_url("&trim=off"));
  ASSERT_TRUE(untrimmed.publish_batch(std::vector{message("m-7", "orders")})[0].is_confirmed());
  EXPECT_EQ(length_of("orders"), 3);
}

TEST_F(RedisStreamsGroups, TrimmingForgetsIdleConsumersThatHoldNothing) {
  StreamsTransport transport(transport_url("&claim_idle_ms=1000"));
  transport.declare_group("orders", "billing");
  ASSERT_TRUE(transport.publish_batch(std::vector{message("m-1", "orders")})[0].is_confirmed());
  dead_consumer_reads("orders", "billing");  // "ghost" holds m-1
  admin().run({"XGROUP", "CREATECONSUMER", stream_of("orders"), "billing", "empty"}).ok();
  // The condition is the server's idle time itself: both are idle past claim_idle_ms.
  std::this_thread::sleep_for(milliseconds(1100));
  transport.trim("orders");
  EXPECT_EQ(consumer_names("orders", "billing"), std::vector<std::string>{"ghost"});
}

TEST_F(RedisStreamsGroups, ADeadConsumersEntryIsTakenOverAfterClaimIdleWithItsCount) {
  StreamsTransport transport(transport_url("&claim_idle_ms=1000"));
  transport.declare_group("orders", "billing");
  ASSERT_TRUE(transport.publish_batch(std::vector{message("m-1", "orders")})[0].is_confirmed());
  dead_consumer_reads("orders", "billing");
  auto subscription = transport.subscribe({.destination = "orders", .group = "billing"});
  const auto started = std::chrono::steady_clock::now();
  const auto delivery = subscription.next(kWait).value();
  EXPECT_GE(std::chrono::steady_clock::now() - started, milliseconds(500));  // not at once
  EXPECT_EQ(delivery.message.envelope.message_id, "m-1");
  EXPECT_EQ(delivery.delivery_count, 2U);
  EXPECT_TRUE(delivery.redelivered);
  subscription.acknowledge(delivery.tag);
  // The XACK rides along with the subscription's next round trip: here, the next call.
  EXPECT_FALSE(subscription.next(kNothing).has_value());
  EXPECT_EQ(admin().run({"XPENDING", stream_of("orders"), "billing"}).integer_at(0), 0);
}

TEST_F(RedisStreamsGroups, AnEntryPastMaxDeliveriesIsDeadLetteredWithItsCount) {
  StreamsTransport transport(transport_url("&claim_idle_ms=1000&max_deliveries=3"));
  transport.declare_group("orders", "billing");
  ASSERT_TRUE(transport.publish_batch(std::vector{message("m-1", "orders")})[0].is_confirmed());
  dead_consumer_reads("orders", "billing");
  const std::string id =
      admin().run({"XPENDING", stream_of("orders"), "billing"}).string_at(1).value();
  admin()
      .run(
          {"XCLAIM", stream_of("orders"), "billing", "ghost", "0", id, "RETRYCOUNT", "3", "JUSTID"})
      .ok();
  auto subscription = transport.subscribe({.destination = "orders", .group = "billing"});
  EXPECT_FALSE(subscription.next(milliseconds(2500)).has_value());
  EXPECT_EQ(admin().run({"XPENDING", stream_of("orders"), "billing"}).integer_at(0), 0);
  auto dead = transport.subscribe(
      {.destination = transport.dead_letter_destination("orders"), .group = "operators"});
  const auto letter = dead.next(kWait).value();
  EXPECT_EQ(letter.message.envelope.message_id, "m-1");
  EXPECT_EQ(header_of(letter.message, kDeadLetterDeliveriesHeader), "4");
  EXPECT_THAT(header_of(letter.message, kDeadLetterErrorHeader), HasSubstr("max_deliveries=3"));
}

TEST_F(RedisStreamsGroups, AnEntryDocketDidNotWriteIsDeadLetteredAsItIs) {
  StreamsTransport transport(transport_url());
  transport.declare_group("orders", "billing");
  admin().run({"XADD", stream_of("orders"), "*", "foo", "bar"}).ok();
  ASSERT_TRUE(transport.publish_batch(std::vector{message("m-1", "orders")})[0].is_confirmed());
  auto subscription = transport.subscribe({.destination = "orders", .group = "billing"});
  const auto delivery = subscription.next(kWait).value();
  EXPECT_EQ(delivery.message.envelope.message_id, "m-1");  // the foreign one never came
  subscription.acknowledge(delivery.tag);
  const auto letters = claimed_entries(
      admin().run({"XRANGE", stream_of(transport.dead_letter_destination("orders")), "-", "+"}));
  ASSERT_EQ(letters.size(), 1U);
  const Fields& fields = letters[0].fields;
  ASSERT_GE(fields.size(), 3U);
  EXPECT_EQ(fields[0], (std::pair<std::string, std::string>{"foo", "bar"}));
  EXPECT_EQ(fields[1].first, kDeadLetterErrorHeader);
  EXPECT_THAT(fields[1].second, HasSubstr("not a docket message"));
  subscription.close();  // sends the acknowledgement
  EXPECT_EQ(admin().run({"XPENDING", stream_of("orders"), "billing"}).integer_at(0), 0);
}

TEST_F(RedisStreamsGroups, CloseHandsItsEntriesBackInOrderAndLeavesNoConsumerBehind) {
  StreamsTransport transport(transport_url());
  transport.declare_group("orders", "billing");
  std::vector<TransportMessage> batch;
  for (int i = 1; i <= 4; ++i)
    batch.push_back(message("m-" + std::to_string(i), "orders"));
  for (const auto& result : transport.publish_batch(batch))
    ASSERT_TRUE(result.is_confirmed()) << result.error;
  {
    auto first = transport.subscribe({.destination = "orders", .group = "billing", .prefetch = 2});
    EXPECT_EQ(first.next(kWait).value().message.envelope.message_id, "m-1");  // m-2 fetched too
  }
  auto second = transport.subscribe({.destination = "orders", .group = "billing", .prefetch = 4});
  std::vector<std::pair<std::string, std::uint32_t>> got;
  while (auto delivery = second.next(kNothing)) {
    got.emplace_back(delivery->message.envelope.message_id, delivery->delivery_count);
    second.acknowledge(delivery->tag);
  }
  EXPECT_EQ(got, (std::vector<std::pair<std::string, std::uint32_t>>{
                     {"m-1", 2}, {"m-2", 1}, {"m-3", 1}, {"m-4", 1}}));
  second.close();
  EXPECT_EQ(consumer_names("orders", "billing"),
            std::vector<std::string>{"docket-returned"});  // the others deleted
}

}  // namespace
}  // namespace docket::redis::streams::test
