// Bad input through the transport and the relay, not the client layer (whose errors
// rabbitmq_connection_test.cc and rabbitmq_publish_test.cc pin): a broker that is down,
// wrong credentials, a missing exchange the user may not declare, a message over the
// size limit, a malformed URL. For each, what RabbitMqTransport's constructor,
// publish_batch and subscribe do; that the message names the broker (never its
// password), the destination where there is one, and what to do; and that a relay pass
// over an outbox on a SQLite file leaves the message unpublished, not lost: pending for
// another attempt, or parked when it can never be published, never marked done.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "docket/core/error.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/rabbitmq/transport.h"
#include "docket/stores/open_store.h"
#include "transports/rabbitmq/rabbitmq_connection.h"
#include "transports/rabbitmq/tests/rabbitmq_broker_fixture.h"

namespace docket::rabbitmq::detail::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view kDestination = "orders.placed";
constexpr std::string_view kWrongPassword = "not-the-password";

// The URL text of `url` with `exchange` and the extra options `extra` ("&a=b").
std::string url_text(const BrokerUrl& url, std::string_view exchange, std::string_view extra = "") {
  return "amqp://" + url.user + ":" + url.password + "@" + url.host + ":" +
         std::to_string(url.port) + "/" + (url.vhost == "/" ? "%2F" : url.vhost) +
         "?exchange=" + std::string(exchange) + std::string(extra);
}

// A loopback port nothing listens on: bound, then closed, by this test.
int unused_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  EXPECT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ::close(fd);
  return ntohs(address.sin_port);
}

// The message of the exception of type E that `action` throws; fails the test when it
// throws none.
template <typename E>
std::string thrown(const std::function<void()>& action) {
  try {
    action();
  } catch (const E& error) {
    return error.what();
  }
  ADD_FAILURE() << "nothing was thrown";
  return {};
}

TransportMessage transport_message(std::string_view id) {
  return TransportMessage{
      .tenant = "acme",
      .envelope =
          Envelope{.message_id = std::string(id), .event_type = "OrderPlaced", .payload = "{}"},
      .destination = std::string(kDestination)};
}

class RabbitmqBadInput : public BrokerTest {
 protected:
  void SetUp() override {
    BrokerTest::SetUp();
    directory_ = std::filesystem::temp_directory_path() / entity_name("outbox");
    std::filesystem::create_directories(directory_);
    outbox_store_ = open_outbox_store("sqlite://" + (directory_ / "outbox.db").string());
  }
  void TearDown() override {
    outbox_store_.reset();
    std::filesystem::remove_all(directory_);
    BrokerTest::TearDown();
  }

  // Stages a message to kDestination with `payload`, committed; returns its id.
  std::string stage(std::string payload = "{}") {
    const Outbox outbox(*outbox_store_);
    auto unit = outbox_store_->begin();
    const Uuid id = outbox.stage(unit->handler_transaction(), {.event_type = "OrderPlaced",
                                                               .payload = std::move(payload),
                                                               .destination = "orders.placed"});
    unit->commit();
    return id.to_string();
  }

  // One relay pass over `transport`; returns the row of `id` after it.
  OutboxRecord relay_once(Transport& transport, const std::string& id, RelayPass* pass = nullptr) {
    Relay relay(*outbox_store_, transport, RelayOptions{});
    const RelayPass done = relay.run_once();
    if (pass != nullptr)
      *pass = done;
    const auto row = outbox_store_->find(id);
    EXPECT_TRUE(row.has_value()) << "the message " << id << " is gone from the outbox";
    return row.value_or(OutboxRecord{});
  }

  // The row after one failed relay pass: still pending (never marked done), its error
  // recorded, due again later.
  void expect_pending_after_a_failed_attempt(const OutboxRecord& row) {
    EXPECT_EQ(row.status, OutboxStatus::kPending);
    EXPECT_EQ(row.attempts, 1);
    EXPECT_FALSE(row.done_at.has_value());
    ASSERT_TRUE(row.last_error.has_value());
    EXPECT_THAT(*row.last_error, HasSubstr("retryable: "));
    EXPECT_THAT(*row.last_error, Not(HasSubstr(url_.password)));
  }

  std::filesystem::path directory_;
  std::unique_ptr<OutboxStore> outbox_store_;
};

TEST_F(RabbitmqBadInput, ABrokerThatIsDownLeavesTheMessagePendingAndSaysToStartIt) {
  BrokerUrl down = url_;
  down.port = unused_port();
  RabbitMqTransport transport(url_text(down, topology_.exchange));  // connects on first use
  const std::string broker = printable(down);

  const auto results = transport.publish_batch(std::vector{transport_message("m-1")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRetryable);
  EXPECT_THAT(results[0].error, HasSubstr(broker));
  EXPECT_THAT(results[0].error, HasSubstr("is the broker running"));
  EXPECT_THAT(results[0].error,
              HasSubstr("message 'm-1' to destination '" + std::string(kDestination) + "'"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(down.password)));

  const std::string subscribing = thrown<TransportError>(
      [&] { transport.subscribe({.destination = std::string(kDestination), .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr(broker));
  EXPECT_THAT(subscribing, HasSubstr("destination '" + std::string(kDestination) + "'"));
  EXPECT_THAT(subscribing, HasSubstr("is the broker running"));
  EXPECT_THAT(subscribing, Not(HasSubstr(down.password)));

  const std::string id = stage();
  RelayPass pass;
  const OutboxRecord row = relay_once(transport, id, &pass);
  EXPECT_EQ(pass.claimed, 1U);
  EXPECT_EQ(pass.published, 0U);
  EXPECT_EQ(pass.retried, 1U);
  expect_pending_after_a_failed_attempt(row);
  EXPECT_THAT(row.last_error.value_or(""), HasSubstr(broker));
}

TEST_F(RabbitmqBadInput, WrongCredentialsLeaveTheMessagePendingAndSayToCheckThem) {
  BrokerUrl wrong = url_;
  wrong.password = std::string(kWrongPassword);
  RabbitMqTransport transport(url_text(wrong, topology_.exchange));
  const std::string broker = printable(wrong);

  const auto results = transport.publish_batch(std::vector{transport_message("m-1")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRetryable);
  EXPECT_THAT(results[0].error, HasSubstr(broker));
  EXPECT_THAT(results[0].error, HasSubstr("check the user name and password"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(kWrongPassword)));

  const std::string subscribing = thrown<TransportError>(
      [&] { transport.subscribe({.destination = std::string(kDestination), .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr(broker));
  EXPECT_THAT(subscribing, HasSubstr("destination '" + std::string(kDestination) + "'"));
  EXPECT_THAT(subscribing, HasSubstr("check the user name and password"));
  EXPECT_THAT(subscribing, Not(HasSubstr(kWrongPassword)));

  const std::string id = stage();
  const OutboxRecord row = relay_once(transport, id);
  expect_pending_after_a_failed_attempt(row);
  EXPECT_THAT(row.last_error.value_or(""), Not(HasSubstr(kWrongPassword)));
}

TEST_F(RabbitmqBadInput, AMissingExchangeTheUserMayNotDeclareIsNamedAndNothingIsWritten) {
  BrokerUrl limited = url_;
  limited.user = "docket_limited";  // may read and write, declare nothing
  const std::string missing = entity_name("missing-exchange");
  RabbitMqTransport transport(url_text(limited, missing));
  const std::string broker = printable(limited);

  const auto results = transport.publish_batch(std::vector{transport_message("m-1")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRetryable);
  EXPECT_THAT(results[0].error, HasSubstr(broker));
  EXPECT_THAT(results[0].error, HasSubstr("exchange '" + missing + "' in vhost '" + url_.vhost +
                                          "' does not exist, and user 'docket_limited' may not "
                                          "declare it"));
  EXPECT_THAT(results[0].error, HasSubstr("declare it as a user who may"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(url_.password)));

  const std::string subscribing = thrown<TransportError>(
      [&] { transport.subscribe({.destination = std::string(kDestination), .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr(broker));
  EXPECT_THAT(subscribing, HasSubstr("destination '" + std::string(kDestination) + "'"));
  EXPECT_THAT(subscribing, HasSubstr("group 'billing'"));
  EXPECT_THAT(subscribing,
              HasSubstr("exchange '" + missing + "' in vhost '" + url_.vhost + "' does not exist"));

  const std::string id = stage();
  const OutboxRecord row = relay_once(transport, id);
  expect_pending_after_a_failed_attempt(row);
  EXPECT_THAT(row.last_error.value_or(""), HasSubstr(missing));

  // Nothing was declared on the broker: the exchange is still missing.
  Connection admin(url_);
  Topology check = topology_;
  check.exchange = missing;
  try {
    check_topology(admin, check);
    ADD_FAILURE() << "exchange " << missing << " exists";
  } catch (const BrokerError& error) {
    EXPECT_EQ(error.kind(), BrokerErrorKind::not_found) << error.what();
  }
}

TEST_F(RabbitmqBadInput, AUserWhoMayNotDeclarePublishesAndConsumesWhereItsOwnerDeclared) {
  BrokerUrl limited = url_;
  limited.user = "docket_limited";  // the exchange is this test's, declared by its owner
  RabbitMqTransport owner(url_text(url_, topology_.exchange));
  owner.declare_group(kDestination, "billing");
  RabbitMqTransport transport(url_text(limited, topology_.exchange));
  const auto results = transport.publish_batch(std::vector{transport_message("m-1")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_TRUE(results[0].is_confirmed()) << results[0].error;
  // ... and consumes from the group its owner declared, though it may declare no queue;
  // a group nobody declared is refused naming the queue and the permission.
  {
    Subscription subscription =
        transport.subscribe({.destination = std::string(kDestination), .group = "billing"});
    std::optional<docket::Delivery> delivery;
    for (int polls = 0; polls < 50 && !delivery; ++polls)
      delivery = subscription.next(std::chrono::milliseconds(100));
    ASSERT_TRUE(delivery.has_value());
    EXPECT_EQ(delivery->message.envelope.message_id, "m-1");
    subscription.acknowledge(delivery->tag);
  }
  const std::string undeclared = thrown<TransportError>(
      [&] { transport.subscribe({.destination = std::string(kDestination), .group = "nobody"}); });
  EXPECT_THAT(undeclared, HasSubstr(transport.queue_name(kDestination, "nobody")));
  EXPECT_THAT(undeclared, HasSubstr("may not declare it"));
  Connection admin(url_);
  Channel channel(admin);
  const std::string queue = owner.queue_name(kDestination, "billing");
  amqp_queue_delete(channel.state(), channel.id(), as_bytes(queue), 0, 0);
  channel.check(amqp_get_rpc_reply(channel.state()), "deleting queue " + queue);
}

TEST_F(RabbitmqBadInput, AMessageOverTheSizeLimitIsParkedAtOnceAndItsNeighbourPublished) {
  RabbitMqTransport transport(url_text(url_, topology_.exchange, "&max_message_size=4096"));
  transport.declare_group(kDestination, "billing");
  const std::string broker = printable(url_);
  TransportMessage big = transport_message("m-big");
  big.envelope.payload.assign(4097, 'x');

  const auto results = transport.publish_batch(std::vector{big});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRefused);
  EXPECT_THAT(results[0].error, HasSubstr(broker));
  EXPECT_THAT(results[0].error, HasSubstr("message 'm-big'"));
  EXPECT_THAT(results[0].error, HasSubstr("destination '" + std::string(kDestination) + "'"));
  EXPECT_THAT(results[0].error, HasSubstr("max_message_size of 4096"));
  EXPECT_THAT(results[0].error, HasSubstr("make it smaller"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(url_.password)));

  const std::string big_id = stage(std::string(4097, 'x'));
  const std::string small_id = stage();
  RelayPass pass;
  const OutboxRecord row = relay_once(transport, big_id, &pass);
  EXPECT_EQ(pass.published, 1U);  // the neighbour
  EXPECT_EQ(pass.parked, 1U);
  EXPECT_EQ(row.status, OutboxStatus::kParked);  // never publishable: kept for an operator
  EXPECT_FALSE(row.done_at.has_value());
  EXPECT_THAT(row.last_error.value_or(""), HasSubstr("refused for good"));
  EXPECT_THAT(row.last_error.value_or(""), HasSubstr("max_message_size of 4096"));
  EXPECT_EQ(outbox_store_->find(small_id).value().status, OutboxStatus::kDone);
  ASSERT_EQ(Outbox(*outbox_store_).parked().size(), 1U);
  EXPECT_EQ(Outbox(*outbox_store_).parked().front().id, big_id);

  // Only the neighbour reached the queue.
  auto subscription =
      transport.subscribe({.destination = std::string(kDestination), .group = "billing"});
  const auto delivered = subscription.next(std::chrono::seconds(5));
  ASSERT_TRUE(delivered.has_value());
  EXPECT_EQ(delivered->message.envelope.message_id, small_id);
  subscription.acknowledge(delivered->tag);
  EXPECT_FALSE(subscription.next(std::chrono::milliseconds(300)).has_value());
  subscription.close();
  Connection admin(url_);
  Channel channel(admin);
  const std::string queue = transport.queue_name(kDestination, "billing");
  amqp_queue_delete(channel.state(), channel.id(), as_bytes(queue), 0, 0);
  channel.check(amqp_get_rpc_reply(channel.state()), "deleting queue " + queue);
}

TEST_F(RabbitmqBadInput, AMalformedUrlIsRefusedByTheConstructorWithoutItsPassword) {
  const std::string bad_port = thrown<ConfigurationError>([] {
    RabbitMqTransport transport("amqp://docket:s3cret-pw@127.0.0.1:56x2/docket?exchange=orders");
  });
  EXPECT_THAT(bad_port, HasSubstr("port"));
  EXPECT_THAT(bad_port, HasSubstr("amqp://docket:***@"));
  EXPECT_THAT(bad_port, Not(HasSubstr("s3cret-pw")));

  const std::string no_exchange = thrown<ConfigurationError>(
      [] { RabbitMqTransport transport("amqp://docket:s3cret-pw@127.0.0.1:5672/docket"); });
  EXPECT_THAT(no_exchange, HasSubstr("?exchange=<name>"));
  EXPECT_THAT(no_exchange, Not(HasSubstr("s3cret-pw")));

  const std::string unknown_option = thrown<ConfigurationError>([] {
    RabbitMqTransport transport("amqp://docket:s3cret-pw@127.0.0.1/docket?exchange=o&heartbeet=5");
  });
  EXPECT_THAT(unknown_option, HasSubstr("heartbeet"));
  EXPECT_THAT(unknown_option, Not(HasSubstr("s3cret-pw")));
}

}  // namespace
}  // namespace docket::rabbitmq::detail::test
