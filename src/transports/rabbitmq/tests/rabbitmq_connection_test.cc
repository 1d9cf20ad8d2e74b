// Connecting, and what each failure says: wrong password, unknown vhost, broker down,
// topology the user may not declare or that is missing, a connection lost underneath.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <functional>

#include "transports/rabbitmq/rabbitmq_consumer.h"
#include "transports/rabbitmq/tests/rabbitmq_broker_fixture.h"

namespace docket::rabbitmq::detail::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace std::chrono_literals;

class RabbitmqConnection : public BrokerTest {};

// The BrokerError `action` throws; fails the test when it throws none.
BrokerError error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const BrokerError& error) {
    return error;
  }
  ADD_FAILURE() << "no BrokerError";
  return BrokerError(BrokerErrorKind::protocol, "none");
}

TEST_F(RabbitmqConnection, AWrongPasswordIsAnAuthenticationError) {
  BrokerUrl wrong = url_;
  wrong.password = "not-the-password";
  const BrokerError error = error_of([&] { Connection connection(wrong); });
  EXPECT_EQ(error.kind(), BrokerErrorKind::authentication) << error.what();
  EXPECT_FALSE(error.reconnect_may_help());
  EXPECT_THAT(error.what(), HasSubstr(printable(wrong)));
  EXPECT_THAT(error.what(), HasSubstr("password"));
  EXPECT_THAT(error.what(), Not(HasSubstr("not-the-password")));
}

TEST_F(RabbitmqConnection, AnUnknownVhostSaysSo) {
  BrokerUrl wrong = url_;
  wrong.vhost = "no-such-vhost";
  const BrokerError error = error_of([&] { Connection connection(wrong); });
  EXPECT_EQ(error.kind(), BrokerErrorKind::unknown_vhost) << error.what();
  EXPECT_THAT(error.what(), HasSubstr("no-such-vhost"));
  EXPECT_THAT(error.what(), HasSubstr("add_vhost"));
  EXPECT_THAT(error.what(), Not(HasSubstr(url_.password)));
}

TEST_F(RabbitmqConnection, ABrokerThatIsDownIsUnreachable) {
  // A port nothing listens on: bound, then closed, by this test.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ::close(fd);
  BrokerUrl down = url_;
  down.port = ntohs(address.sin_port);
  const BrokerError error = error_of([&] { Connection connection(down); });
  EXPECT_EQ(error.kind(), BrokerErrorKind::unreachable) << error.what();
  EXPECT_TRUE(error.reconnect_may_help());
  EXPECT_THAT(error.what(), HasSubstr(printable(down)));
  EXPECT_THAT(error.what(), HasSubstr("scripts/rabbitmq-start.sh"));
}

TEST_F(RabbitmqConnection, AUserWhoMayNotDeclareIsToldWhichEntity) {
  BrokerUrl limited = url_;
  limited.user = "docket_limited";
  Connection connection(limited);
  Topology missing = topology_;
  missing.exchange = entity_name("not-declared");
  const BrokerError declaring = error_of([&] { declare_topology(connection, missing); });
  EXPECT_EQ(declaring.kind(), BrokerErrorKind::access_refused) << declaring.what();
  EXPECT_THAT(declaring.what(), HasSubstr("403 ACCESS_REFUSED"));

  // The user's own topology exists: checking it passes; a missing exchange is named.
  check_topology(connection, topology_);
  const BrokerError checking = error_of([&] { check_topology(connection, missing); });
  EXPECT_EQ(checking.kind(), BrokerErrorKind::not_found) << checking.what();
  EXPECT_THAT(checking.what(),
              HasSubstr("checking (passively) topic exchange '" + missing.exchange));
  EXPECT_THAT(checking.what(), HasSubstr("404 NOT_FOUND"));
}

TEST_F(RabbitmqConnection, ALostConnectionIsConnectionLostAndStaysSo) {
  Connection connection(url_);
  Consumer consumer(connection, topology_.queue, 1);
  // The network fails under the connection.
  ASSERT_EQ(::shutdown(amqp_get_sockfd(connection.state()), SHUT_RDWR), 0);
  EXPECT_THROW(consumer.next(2s), ConnectionLost);
  EXPECT_FALSE(connection.alive());
  try {
    consumer.ack(1);
    ADD_FAILURE() << "ack on a lost connection succeeded";
  } catch (const ConnectionLost& error) {
    EXPECT_TRUE(error.reconnect_may_help());
    EXPECT_THAT(error.what(), HasSubstr(printable(url_)));
  }
}

}  // namespace
}  // namespace docket::rabbitmq::detail::test
