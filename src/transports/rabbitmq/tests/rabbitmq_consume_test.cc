// Consuming against the real broker: dead-lettering, redelivery of what a closed
// connection held, requeue, the prefetch bound, a quorum queue's delivery count.
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "transports/rabbitmq/rabbitmq_consumer.h"
#include "transports/rabbitmq/rabbitmq_publisher.h"
#include "transports/rabbitmq/tests/rabbitmq_broker_fixture.h"

namespace docket::rabbitmq::detail::test {
namespace {

using namespace std::chrono_literals;

class RabbitmqConsume : public BrokerTest {
 protected:
  void publish(const std::vector<OutgoingMessage>& batch) {
    Connection connection(url_);
    Publisher publisher(connection);
    for (const auto& result : publisher.publish(batch, 5s)) {
      ASSERT_EQ(result.status, PublishStatus::confirmed) << result.detail;
    }
  }
};

TEST_F(RabbitmqConsume, ANackWithoutRequeueLandsInTheDeadLetterQueue) {
  publish({message("poison")});
  Connection connection(url_);
  Consumer consumer(connection, topology_.queue, 1);
  const auto delivery = consumer.next(5s);
  ASSERT_TRUE(delivery.has_value());
  consumer.nack(delivery->delivery_tag, false);
  EXPECT_FALSE(consumer.next(200ms).has_value());

  Consumer dead_letters(connection, topology_.dead_letter_queue, 1);
  const auto dead = dead_letters.next(5s);
  ASSERT_TRUE(dead.has_value());
  EXPECT_EQ(dead->message_id, "poison");
  EXPECT_EQ(dead->body, "body of poison");
  dead_letters.ack(dead->delivery_tag);
}

TEST_F(RabbitmqConsume, AnUnacknowledgedDeliveryIsRedeliveredAfterItsConnectionCloses) {
  publish({message("held")});
  {
    Connection connection(url_);
    Consumer consumer(connection, topology_.queue, 1);
    const auto delivery = consumer.next(5s);
    ASSERT_TRUE(delivery.has_value());
    EXPECT_FALSE(delivery->redelivered);
  }  // closed without an ack
  Connection connection(url_);
  Consumer consumer(connection, topology_.queue, 1);
  const auto again = consumer.next(5s);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->message_id, "held");
  EXPECT_TRUE(again->redelivered);
  consumer.ack(again->delivery_tag);
}

TEST_F(RabbitmqConsume, ANackWithRequeueRedeliversIt) {
  publish({message("retry")});
  Connection connection(url_);
  Consumer consumer(connection, topology_.queue, 1);
  const auto first = consumer.next(5s);
  ASSERT_TRUE(first.has_value());
  consumer.nack(first->delivery_tag, true);
  const auto again = consumer.next(5s);
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->message_id, "retry");
  EXPECT_TRUE(again->redelivered);
  EXPECT_FALSE(again->delivery_count.has_value());  // a classic queue counts nothing
  consumer.ack(again->delivery_tag);
}

TEST_F(RabbitmqConsume, ThePrefetchBoundsUnacknowledgedDeliveries) {
  publish({message("p-1"), message("p-2"), message("p-3")});
  Connection connection(url_);
  Consumer consumer(connection, topology_.queue, 2);
  const auto first = consumer.next(5s);
  const auto second = consumer.next(5s);
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(second.has_value());
  // The third waits in the queue until one of the two is acknowledged.
  EXPECT_FALSE(consumer.next(300ms).has_value());
  consumer.ack(first->delivery_tag);
  const auto third = consumer.next(5s);
  ASSERT_TRUE(third.has_value());
  EXPECT_EQ(third->message_id, "p-3");
  consumer.ack(second->delivery_tag);
  consumer.ack(third->delivery_tag);
}

TEST_F(RabbitmqConsume, AQuorumQueueCountsDeliveries) {
  Topology quorum = topology_;
  quorum.queue = entity_name("quorum");
  quorum.quorum_queue = true;
  declare_topology(*admin_, quorum);
  publish({message("counted")});
  Connection connection(url_);
  {
    Consumer consumer(connection, quorum.queue, 1);
    const auto first = consumer.next(5s);
    ASSERT_TRUE(first.has_value());
    EXPECT_FALSE(first->delivery_count.has_value());
    consumer.nack(first->delivery_tag, true);
    const auto again = consumer.next(5s);
    ASSERT_TRUE(again.has_value());
    EXPECT_TRUE(again->redelivered);
    EXPECT_EQ(again->delivery_count, 1);
    consumer.ack(again->delivery_tag);
  }
  Channel channel(*admin_);
  amqp_queue_delete(channel.state(), channel.id(), as_bytes(quorum.queue), 0, 0);
  channel.check(amqp_get_rpc_reply(channel.state()), "deleting the quorum queue");
}

}  // namespace
}  // namespace docket::rabbitmq::detail::test
