// Publishing against the real broker: confirms, returns of unroutable messages, the
// size limit refused before sending, a publish to a missing exchange.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "transports/rabbitmq/rabbitmq_consumer.h"
#include "transports/rabbitmq/rabbitmq_publisher.h"
#include "transports/rabbitmq/tests/rabbitmq_broker_fixture.h"

namespace docket::rabbitmq::detail::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

class RabbitmqPublish : public BrokerTest {};

TEST_F(RabbitmqPublish, ConfirmedMessagesArriveWithIdHeadersAndBody) {
  Connection connection(url_);
  Publisher publisher(connection);
  std::vector<OutgoingMessage> batch{message("m-1"), message("m-2", "orders.paid")};
  batch[0].headers = {{"ce-type", "OrderCreated"}, {"traceparent", "00-abc-def-01"}};
  batch[0].content_type = "application/json";
  const auto results = publisher.publish(batch, 5s);
  ASSERT_EQ(results.size(), 2u);
  for (const auto& result : results) {
    EXPECT_EQ(result.status, PublishStatus::confirmed) << result.detail;
  }

  Connection consuming(url_);
  Consumer consumer(consuming, topology_.queue, 10);
  const auto first = consumer.next(5s);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->message_id, "m-1");
  EXPECT_EQ(first->body, "body of m-1");
  EXPECT_EQ(first->content_type, "application/json");
  EXPECT_EQ(first->routing_key, "orders.created");
  EXPECT_EQ(first->exchange, topology_.exchange);
  EXPECT_FALSE(first->redelivered);
  EXPECT_EQ(first->headers, batch[0].headers);
  const auto second = consumer.next(5s);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->message_id, "m-2");
  consumer.ack(first->delivery_tag);
  consumer.ack(second->delivery_tag);
  EXPECT_FALSE(consumer.next(200ms).has_value());
}

TEST_F(RabbitmqPublish, AnUnroutableMessageIsReturnedAndTheOthersConfirmed) {
  Connection connection(url_);
  Publisher publisher(connection);
  const std::vector<OutgoingMessage> batch{message("routed-1"), message("lost", "invoices.sent"),
                                           message("routed-2")};
  const auto results = publisher.publish(batch, 5s);
  EXPECT_EQ(results[0].status, PublishStatus::confirmed) << results[0].detail;
  EXPECT_EQ(results[1].status, PublishStatus::returned);
  EXPECT_THAT(results[1].detail, HasSubstr("312 NO_ROUTE"));
  EXPECT_THAT(results[1].detail, HasSubstr("invoices.sent"));
  EXPECT_EQ(results[2].status, PublishStatus::confirmed) << results[2].detail;
}

TEST_F(RabbitmqPublish, AMessageOverTheSizeLimitIsRefusedBeforeSending) {
  BrokerUrl limited = url_;
  limited.max_message_size = 1024;
  Connection connection(limited);
  Publisher publisher(connection);
  std::vector<OutgoingMessage> batch{message("small"), message("big")};
  batch[1].body.assign(2048, 'x');
  const auto results = publisher.publish(batch, 5s);
  EXPECT_EQ(results[0].status, PublishStatus::confirmed) << results[0].detail;
  EXPECT_EQ(results[1].status, PublishStatus::refused);
  EXPECT_THAT(results[1].detail,
              HasSubstr("'big' is 2048 bytes, over the broker's max_message_size of 1024"));
  EXPECT_THAT(results[1].detail, Not(HasSubstr(url_.password)));

  // Only the small one reached the queue.
  Connection consuming(url_);
  Consumer consumer(consuming, topology_.queue, 10);
  const auto delivery = consumer.next(5s);
  ASSERT_TRUE(delivery.has_value());
  EXPECT_EQ(delivery->message_id, "small");
  consumer.ack(delivery->delivery_tag);
  EXPECT_FALSE(consumer.next(200ms).has_value());
}

TEST_F(RabbitmqPublish, TheDefaultLimitIsTheBrokersAndHeadersMustFitAFrame) {
  Connection connection(url_);
  Publisher publisher(connection);
  std::vector<OutgoingMessage> batch{message("huge"), message("many-headers"), message("fine")};
  batch[0].body.assign(134217728 + 1, 'x');
  batch[1].headers = {{"big", std::string(200000, 'h')}};
  const auto results = publisher.publish(batch, 5s);
  EXPECT_EQ(results[0].status, PublishStatus::refused);
  EXPECT_THAT(results[0].detail, HasSubstr("max_message_size of 134217728"));
  EXPECT_EQ(results[1].status, PublishStatus::refused);
  EXPECT_THAT(results[1].detail, HasSubstr("over the frame size of 131072"));
  EXPECT_EQ(results[2].status, PublishStatus::confirmed) << results[2].detail;
}

TEST_F(RabbitmqPublish, APublishToAMissingExchangeFailsNamingItAndThePublisherGoesOn) {
  Connection connection(url_);
  Publisher publisher(connection);
  OutgoingMessage lost = message("nowhere");
  lost.exchange = entity_name("missing");
  const std::vector<OutgoingMessage> failing{lost};
  const auto results = publisher.publish(failing, 5s);
  EXPECT_EQ(results[0].status, PublishStatus::failed);
  EXPECT_THAT(results[0].detail, HasSubstr("404 NOT_FOUND"));
  EXPECT_THAT(results[0].detail, HasSubstr(lost.exchange));

  const std::vector<OutgoingMessage> next{message("after")};
  const auto after = publisher.publish(next, 5s);
  EXPECT_EQ(after[0].status, PublishStatus::confirmed) << after[0].detail;
}

}  // namespace
}  // namespace docket::rabbitmq::detail::test
