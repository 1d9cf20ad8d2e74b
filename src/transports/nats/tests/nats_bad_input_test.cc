// Bad input through the NATS transport and a relay pass over an outbox on a SQLite file:
// a server that is down, wrong credentials, a subject no stream takes, a stream the user
// may not create, a message over the server's max_payload, a malformed URL. For each:
// what publish_batch and subscribe do, that the message names the server (never its
// password), the destination and what to do, and that the relay leaves the message
// pending (or parks what can never be published), never marks it done, never loses it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>

#include "docket/core/error.h"
#include "docket/nats/transport.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/stores/open_store.h"
#include "transports/nats/nats_connection.h"
#include "transports/nats/nats_topology.h"
#include "transports/nats/tests/nats_server_fixture.h"

namespace docket::nats::detail::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view kWrongPassword = "not-the-password";
constexpr std::string_view kLimitedUser = "docket_limited";

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

class NatsBadInput : public NatsServerTest {
 protected:
  void SetUp() override {
    NatsServerTest::SetUp();
    stream_ = entity_name("bad");
    prefix_ = entity_name("orders");
    destination_ = prefix_ + ".placed";
    directory_ = std::filesystem::temp_directory_path() / entity_name("outbox");
    std::filesystem::create_directories(directory_);
    outbox_store_ = open_outbox_store("sqlite://" + (directory_ / "outbox.db").string());
  }
  void TearDown() override {
    outbox_store_.reset();
    std::filesystem::remove_all(directory_);
    NatsServerTest::TearDown();
  }

  std::string owner_url(std::string_view extra = "") {
    return url_text(*url_.user, stream_, prefix_ + ".>", extra);
  }

  TransportMessage message(std::string_view id, std::string destination = {}) {
    return TransportMessage{
        .tenant = "acme",
        .envelope =
            Envelope{.message_id = std::string(id), .event_type = "OrderPlaced", .payload = "{}"},
        .destination = destination.empty() ? destination_ : destination};
  }

  std::string stage(std::string payload = "{}", std::string destination = {}) {
    const Outbox outbox(*outbox_store_);
    auto unit = outbox_store_->begin();
    const Uuid id =
        outbox.stage(unit->handler_transaction(),
                     {.event_type = "OrderPlaced",
                      .payload = std::move(payload),
                      .destination = destination.empty() ? destination_ : std::move(destination)});
    unit->commit();
    return id.to_string();
  }

  OutboxRecord relay_once(Transport& transport, const std::string& id, RelayPass* pass = nullptr) {
    Relay relay(*outbox_store_, transport, RelayOptions{});
    const RelayPass done = relay.run_once();
    if (pass != nullptr)
      *pass = done;
    const auto row = outbox_store_->find(id);
    EXPECT_TRUE(row.has_value()) << "the message " << id << " is gone from the outbox";
    return row.value_or(OutboxRecord{});
  }

  void expect_pending_after_a_failed_attempt(const OutboxRecord& row, std::string_view secret) {
    EXPECT_EQ(row.status, OutboxStatus::kPending);
    EXPECT_EQ(row.attempts, 1);
    EXPECT_FALSE(row.done_at.has_value());
    ASSERT_TRUE(row.last_error.has_value());
    EXPECT_THAT(*row.last_error, Not(HasSubstr(secret)));
  }

  bool stream_exists(const std::string& stream) {
    ServerUrl owner = url_;
    owner.stream = stream;
    try {
      ensure_stream(Connection(owner));  // no subjects: a check, never a declaration
      return true;
    } catch (const NatsError& error) {
      EXPECT_EQ(error.kind(), NatsErrorKind::not_found) << error.what();
      return false;
    }
  }

  std::string stream_;
  std::string prefix_;
  std::string destination_;
  std::filesystem::path directory_;
  std::unique_ptr<OutboxStore> outbox_store_;
};

TEST_F(NatsBadInput, AServerThatIsDownLeavesTheMessagePendingAndSaysToStartIt) {
  ServerUrl down = url_;
  down.port = unused_port();
  NatsTransport transport("nats://" + *down.user + ":" + down.password +
                          "@127.0.0.1:" + std::to_string(down.port) + "?stream=" + stream_ +
                          "&subject=" + prefix_ + ".>");
  const auto results = transport.publish_batch(std::vector{message("m-1")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRetryable);
  EXPECT_THAT(results[0].error, HasSubstr("127.0.0.1:" + std::to_string(down.port)));
  EXPECT_THAT(results[0].error, HasSubstr("is the server up"));
  EXPECT_THAT(results[0].error, HasSubstr("message 'm-1' to destination '" + destination_ + "'"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(down.password)));

  const std::string subscribing = thrown<TransportError>(
      [&] { transport.subscribe({.destination = destination_, .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr("destination '" + destination_ + "'"));
  EXPECT_THAT(subscribing, HasSubstr("is the server up"));
  EXPECT_THAT(subscribing, Not(HasSubstr(down.password)));

  const std::string id = stage();
  RelayPass pass;
  const OutboxRecord row = relay_once(transport, id, &pass);
  EXPECT_EQ(pass.published, 0U);
  EXPECT_EQ(pass.retried, 1U);
  expect_pending_after_a_failed_attempt(row, down.password);
}

TEST_F(NatsBadInput, WrongCredentialsLeaveTheMessagePendingAndSayToCheckThem) {
  NatsTransport transport("nats://" + *url_.user + ":" + std::string(kWrongPassword) + "@" +
                          url_.host + ":" + std::to_string(url_.port) + "?stream=" + stream_ +
                          "&subject=" + prefix_ + ".>");
  const auto results = transport.publish_batch(std::vector{message("m-1")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRetryable);
  EXPECT_THAT(results[0].error, HasSubstr("authentication"));
  EXPECT_THAT(results[0].error, HasSubstr("check the user and password"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(kWrongPassword)));

  const std::string subscribing = thrown<TransportError>(
      [&] { transport.subscribe({.destination = destination_, .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr("check the user and password"));
  EXPECT_THAT(subscribing, Not(HasSubstr(kWrongPassword)));

  const std::string id = stage();
  expect_pending_after_a_failed_attempt(relay_once(transport, id), kWrongPassword);
  EXPECT_FALSE(stream_exists(stream_));  // nothing declared
}

TEST_F(NatsBadInput, ASubjectNoStreamTakesIsUnroutableAndStaysPending) {
  NatsTransport transport(owner_url());
  const std::string elsewhere = entity_name("nowhere") + ".placed";
  const auto results =
      transport.publish_batch(std::vector{message("m-lost", elsewhere), message("m-fine")});
  ASSERT_EQ(results.size(), 2U);
  EXPECT_EQ(results[0].status, PublishStatus::kUnroutable);
  EXPECT_THAT(results[0].error, HasSubstr("does not take the subject '" + elsewhere + "'"));
  EXPECT_THAT(results[0].error, HasSubstr("add it to the stream's subjects"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(url_.password)));
  EXPECT_TRUE(results[1].is_confirmed()) << results[1].error;

  const std::string id = stage("{}", elsewhere);
  const OutboxRecord row = relay_once(transport, id);
  expect_pending_after_a_failed_attempt(row, url_.password);
  EXPECT_THAT(row.last_error.value_or(""), HasSubstr(elsewhere));
}

TEST_F(NatsBadInput, AStreamTheUserMayNotCreateIsNamedAndNothingIsWritten) {
  NatsTransport transport(url_text(kLimitedUser, stream_, prefix_ + ".>", "&timeout=1s"));
  const auto results = transport.publish_batch(std::vector{message("m-1")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRetryable);
  EXPECT_THAT(results[0].error, HasSubstr("access_refused"));
  EXPECT_THAT(results[0].error, HasSubstr("the stream does not exist and user 'docket_limited' "
                                          "may not create it"));
  EXPECT_THAT(results[0].error, HasSubstr("create it as a user who may"));
  EXPECT_THAT(results[0].error, Not(HasSubstr(url_.password)));

  const std::string subscribing = thrown<TransportError>(
      [&] { transport.subscribe({.destination = destination_, .group = "billing"}); });
  EXPECT_THAT(subscribing, HasSubstr("may not create it"));

  const std::string id = stage();
  expect_pending_after_a_failed_attempt(relay_once(transport, id), url_.password);
  EXPECT_FALSE(stream_exists(stream_));
}

TEST_F(NatsBadInput, AUserWhoMayNotDeclarePublishesAndConsumesWhereItsOwnerDeclared) {
  NatsTransport owner(owner_url());
  owner.declare_group(destination_, "billing");
  NatsTransport transport(url_text(kLimitedUser, stream_, prefix_ + ".>", "&timeout=1s"));
  const auto results = transport.publish_batch(std::vector{message("m-1")});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_TRUE(results[0].is_confirmed()) << results[0].error;
  {
    Subscription subscription =
        transport.subscribe({.destination = destination_, .group = "billing"});
    const auto delivery = subscription.next(std::chrono::seconds(5));
    ASSERT_TRUE(delivery.has_value());
    EXPECT_EQ(delivery->message.envelope.message_id, "m-1");
    subscription.acknowledge(delivery->tag);
  }
  const std::string undeclared = thrown<TransportError>(
      [&] { transport.subscribe({.destination = destination_, .group = "nobody"}); });
  EXPECT_THAT(undeclared, HasSubstr(transport.consumer_name(destination_, "nobody")));
  EXPECT_THAT(undeclared, HasSubstr("may not create it"));
}

TEST_F(NatsBadInput, AMessageOverMaxPayloadIsParkedAtOnceAndItsNeighbourPublished) {
  NatsTransport transport(owner_url());
  TransportMessage big = message("m-big");
  big.envelope.payload.assign(1024 * 1024 + 1, 'x');  // the server's max_payload: 1 MiB
  const auto results = transport.publish_batch(std::vector{big});
  ASSERT_EQ(results.size(), 1U);
  EXPECT_EQ(results[0].status, PublishStatus::kRefused);
  EXPECT_THAT(results[0].error, HasSubstr("max_payload"));
  EXPECT_THAT(results[0].error, HasSubstr("'m-big'"));

  const std::string big_id = stage(std::string(1024 * 1024 + 1, 'x'));
  const std::string small_id = stage();
  RelayPass pass;
  const OutboxRecord row = relay_once(transport, big_id, &pass);
  EXPECT_EQ(pass.published, 1U);
  EXPECT_EQ(pass.parked, 1U);
  EXPECT_EQ(row.status, OutboxStatus::kParked);
  EXPECT_EQ(outbox_store_->find(small_id).value().status, OutboxStatus::kDone);
}

TEST_F(NatsBadInput, MalformedUrlsAreRefusedByTheConstructor) {
  for (const std::string url :
       {"nats://docket:pw-secret@127.0.0.1:28400", "nats://docket:pw-secret@127.0.0.1:0?stream=S",
        "nats://docket:pw-secret@127.0.0.1?stream=S&bogus=1"}) {
    const std::string refused = thrown<ConfigurationError>([&] { NatsTransport transport(url); });
    EXPECT_THAT(refused, Not(HasSubstr("pw-secret"))) << url;
    EXPECT_FALSE(refused.empty()) << url;
  }
}

}  // namespace
}  // namespace docket::nats::detail::test
