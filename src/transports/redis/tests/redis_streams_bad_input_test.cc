// Bad input through the Redis Streams transport, and a relay pass over an outbox on a
// SQLite file: a server that is down, a wrong password, a key of another type where a
// stream should be, a message over max_message_bytes, a destination no group
// subscribed to, a malformed URL through open_transport. For each: what publish_batch
// and subscribe do, that the message names the server (never the password), the
// destination and what to do, and that the relay leaves the message pending, never
// marks it done, never loses it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <functional>

#include "docket/core/error.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/redis/transport.h"
#include "docket/stores/open_store.h"
#include "docket/transports/open_transport.h"
#include "support/unique_name.h"
#include "transports/redis/tests/redis_streams_server_fixture.h"

namespace docket::redis::streams::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view kWrongPassword = "not-the-password-x7";

int unused_loopback_port() {
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

template <typename E>
std::string thrown_by(const std::function<void()>& action) {
  try {
    action();
  } catch (const E& error) {
    return error.what();
  }
  ADD_FAILURE() << "nothing was thrown";
  return {};
}

class RedisStreamsBadInput : public RedisStreamsServerTest {
 protected:
  void SetUp() override {
    RedisStreamsServerTest::SetUp();
    directory_ = std::filesystem::temp_directory_path() / test_support::unique_name("outbox");
    std::filesystem::create_directories(directory_);
    outbox_store_ = open_outbox_store("sqlite://" + (directory_ / "outbox.db").string());
  }
  void TearDown() override {
    outbox_store_.reset();
    std::filesystem::remove_all(directory_);
    RedisStreamsServerTest::TearDown();
  }

  std::string stage(std::string destination) {
    const Outbox outbox(*outbox_store_);
    auto unit = outbox_store_->begin();
    const Uuid id = outbox.stage(
        unit->handler_transaction(),
        {.event_type = "OrderPlaced", .payload = "{}", .destination = std::move(destination)});
    unit->commit();
    return id.to_string();
  }

  // One relay pass; the message must still be in the outbox, pending, its error kept
  // and free of `secret`.
  RelayPass relay_leaves_pending(Transport& transport, const std::string& id,
                                 std::string_view secret) {
    Relay relay(*outbox_store_, transport, RelayOptions{});
    const RelayPass pass = relay.run_once();
    const auto row = outbox_store_->find(id);
    EXPECT_TRUE(row.has_value()) << "the message " << id << " is gone from the outbox";
    if (row) {
      EXPECT_EQ(row->status, OutboxStatus::kPending);
      EXPECT_FALSE(row->done_at.has_value());
      EXPECT_TRUE(row->last_error.has_value());
      EXPECT_THAT(row->last_error.value_or(""), Not(HasSubstr(secret)));
    }
    return pass;
  }

  // The shared server's password, which no error may print (a text no error holds when
  // the server has none).
  std::string password() const {
    return server_.password.empty() ? std::string("\x01no password") : server_.password;
  }

  std::filesystem::path directory_;
  std::unique_ptr<OutboxStore> outbox_store_;
};

TEST_F(RedisStreamsBadInput, AServerThatIsDownLeavesTheMessagePendingAndSaysToStartIt) {
  const int port = unused_loopback_port();
  StreamsTransport transport("redis://:" + std::string(kWrongPassword) +
                             "@127.0.0.1:" + std::to_string(port) + "/0?stream_prefix=" + prefix_ +
                             "&connect_timeout_ms=500");
  const auto results = transport.publish_batch(std::vector{message("m-1", "orders")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRetryable);
  EXPECT_THAT(results[0].error, HasSubstr("127.0.0.1:" + std::to_string(port)));
  EXPECT_THAT(results[0].error, HasSubstr("start the server"));
  EXPECT_THAT(results[0].error, HasSubstr("message 'm-1' to destination 'orders'"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(kWrongPassword)));

  const std::string subscribing = thrown_by<TransportError>(
      [&] { transport.subscribe({.destination = "orders", .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr("destination 'orders'"));
  EXPECT_THAT(subscribing, HasSubstr("start the server"));
  EXPECT_THAT(subscribing, Not(HasSubstr(kWrongPassword)));

  const RelayPass pass = relay_leaves_pending(transport, stage("orders"), kWrongPassword);
  EXPECT_EQ(pass.published, 0U);
  EXPECT_EQ(pass.retried, 1U);
}

TEST_F(RedisStreamsBadInput, AWrongPasswordIsAConfigurationErrorThatNeverPrintsIt) {
  StreamsTransport transport("redis://:" + std::string(kWrongPassword) + "@" + server_.host + ":" +
                             std::to_string(server_.port) + "/0?stream_prefix=" + prefix_);
  const std::string subscribing = thrown_by<ConfigurationError>(
      [&] { transport.subscribe({.destination = "orders", .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr("password"));
  EXPECT_THAT(subscribing, HasSubstr(server_.server()));
  EXPECT_THAT(subscribing, Not(HasSubstr(kWrongPassword)));
  const std::string publishing = thrown_by<ConfigurationError>(
      [&] { transport.publish_batch(std::vector{message("m-1", "orders")}); });
  EXPECT_THAT(publishing, Not(HasSubstr(kWrongPassword)));
  EXPECT_THAT(transport.describe(), Not(HasSubstr(kWrongPassword)));
}

TEST_F(RedisStreamsBadInput, AKeyOfAnotherTypeIsNamedAndNothingIsWrittenOverIt) {
  admin().run({"SET", stream_of("orders"), "not a stream"}).ok();
  StreamsTransport transport(transport_url());
  const std::string subscribing = thrown_by<ConfigurationError>(
      [&] { transport.subscribe({.destination = "orders", .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr("the key '" + stream_of("orders") + "'"));
  EXPECT_THAT(subscribing, HasSubstr("another stream_prefix"));
  const auto results = transport.publish_batch(std::vector{message("m-1", "orders")});
  EXPECT_EQ(results[0].status, PublishStatus::kNacked);
  EXPECT_THAT(results[0].error, HasSubstr("delete or rename it"));
  EXPECT_EQ(admin().run({"GET", stream_of("orders")}).string(), "not a stream");
  const RelayPass pass = relay_leaves_pending(transport, stage("orders"), password());
  EXPECT_EQ(pass.retried, 1U);
}

TEST_F(RedisStreamsBadInput, ADestinationNoGroupSubscribedToIsUnroutableUntilOneDoes) {
  StreamsTransport transport(transport_url());
  const auto before = transport.publish_batch(std::vector{message("m-1", "orders")});
  EXPECT_EQ(before[0].status, PublishStatus::kUnroutable);
  EXPECT_THAT(before[0].error, HasSubstr("subscribe one"));
  EXPECT_EQ(admin().run({"EXISTS", stream_of("orders")}).integer(), 0);  // nothing written
  const std::string id = stage("orders");
  relay_leaves_pending(transport, id, password());

  transport.declare_group("orders", "billing");
  EXPECT_TRUE(transport.publish_batch(std::vector{message("m-1", "orders")})[0].is_confirmed());
  StreamsTransport creating(transport_url("&create_stream=publish"));
  EXPECT_TRUE(creating.publish_batch(std::vector{message("m-2", "fresh")})[0].is_confirmed());
  EXPECT_EQ(admin().run({"XLEN", stream_of("fresh")}).integer(), 1);
}

TEST_F(RedisStreamsBadInput, RefusesTooLargeAndBadDestinationsForGoodUnsent) {
  StreamsTransport transport(transport_url("&max_message_bytes=1000&create_stream=publish"));
  TransportMessage big = message("big", "orders");
  big.envelope.payload.assign(1001, 'x');
  TransportMessage control = message("ctl", "ord\ners");
  TransportMessage empty = message("empty", "");
  const auto results = transport.publish_batch(std::vector{big, control, empty});
  EXPECT_EQ(results[0].status, PublishStatus::kRefused);
  EXPECT_THAT(results[0].error, HasSubstr("over max_message_bytes=1000"));
  EXPECT_EQ(results[1].status, PublishStatus::kRefused);
  EXPECT_THAT(results[1].error, HasSubstr("control character"));
  EXPECT_EQ(results[2].status, PublishStatus::kRefused);
  EXPECT_EQ(admin().run({"EXISTS", stream_of("orders")}).integer(), 0);
  EXPECT_THROW(transport.subscribe({.destination = "", .group = "g"}), ConfigurationError);
  EXPECT_THROW(transport.subscribe({.destination = "orders", .group = "g", .prefetch = 0}),
               ConfigurationError);
}

TEST_F(RedisStreamsBadInput, OpenTransportOpensItByTheSchemeAndRefusesAMalformedUrl) {
  const auto transport = open_transport(transport_url());
  EXPECT_THAT(transport->describe(), HasSubstr("Redis Streams"));
  EXPECT_THAT(transport->describe(), Not(HasSubstr(password())));
  const std::string refused = thrown_by<ConfigurationError>(
      [] { open_transport("redis://:hunter2@127.0.0.1:6379/0?claim_idle_ms=5"); });
  EXPECT_THAT(refused, HasSubstr("claim_idle_ms"));
  EXPECT_THAT(refused, Not(HasSubstr("hunter2")));
}

}  // namespace
}  // namespace docket::redis::streams::test
