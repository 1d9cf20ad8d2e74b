// The nats:// URL (nats_url.h): what it accepts, every refusal naming what was wrong
// without the password, the masked printable form, and NATS subject matching.
#include "transports/nats/nats_url.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "docket/nats/transport.h"

namespace docket::nats::detail::test {
namespace {

using std::chrono::milliseconds;
using ::testing::HasSubstr;
using ::testing::Not;

std::string refusal(const std::string& url) {
  try {
    parse_server_url(url);
  } catch (const ConfigurationError& error) {
    return error.what();
  }
  ADD_FAILURE() << url << " was accepted";
  return {};
}

TEST(NatsUrl, ParsesCredentialsHostPortAndEveryOption) {
  const ServerUrl url = parse_server_url(
      "nats://app%40x:p%3Ass@broker.local:4333?stream=ORDERS&subject=orders.>,billing.*&"
      "timeout=2s&ack_wait=45s&max_deliver=7&max_ack_pending=50&duplicate_window=10m&"
      "max_msg_size=65536&max_age=7d");
  EXPECT_EQ(url.user, "app@x");
  EXPECT_EQ(url.password, "p:ss");
  EXPECT_EQ(url.host, "broker.local");
  EXPECT_EQ(url.port, 4333);
  EXPECT_EQ(url.stream, "ORDERS");
  EXPECT_EQ(url.subjects, (std::vector<std::string>{"orders.>", "billing.*"}));
  EXPECT_EQ(url.timeout, milliseconds(2000));
  EXPECT_EQ(url.ack_wait, milliseconds(45000));
  EXPECT_EQ(url.max_deliver, 7);
  EXPECT_EQ(url.max_ack_pending, 50);
  EXPECT_EQ(url.duplicate_window, milliseconds(600000));
  EXPECT_EQ(url.max_msg_size, 65536);
  EXPECT_EQ(url.max_age, milliseconds(7LL * 86400000));
}

TEST(NatsUrl, DefaultsToPort4222AndJetStreamsDefaults) {
  const ServerUrl url = parse_server_url("nats://127.0.0.1?stream=S");
  EXPECT_FALSE(url.user.has_value());
  EXPECT_EQ(url.port, 4222);
  EXPECT_EQ(url.ack_wait, milliseconds(30000));
  EXPECT_EQ(url.duplicate_window, milliseconds(120000));
  EXPECT_FALSE(url.max_deliver.has_value());
  EXPECT_TRUE(url.subjects.empty());
}

TEST(NatsUrl, RefusesBadInputNamingItAndNeverShowsThePassword) {
  const std::string secret = "s3cret-pw";
  const std::string base = "nats://app:" + secret + "@127.0.0.1:4222";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {base + "?stream=S&colour=blue", "unknown option 'colour'"},
      {base + "?stream=S&stream=T", "option stream is given twice"},
      {base + "?stream=a.b", "option stream is 'a.b'"},
      {base + "?stream=S&subject=orders..x", "option subject holds 'orders..x'"},
      {base + "?stream=S&subject=orders.>.x", "option subject holds 'orders.>.x'"},
      {base + "?stream=S&ack_wait=30", "option ack_wait is '30'"},
      {base + "?stream=S&ack_wait=10ms", "option ack_wait is '10ms'"},
      {base + "?stream=S&timeout=2 weeks", "option timeout is '2 weeks'"},
      {base + "?stream=S&max_deliver=0", "option max_deliver is '0'"},
      {base + "?stream=S&max_msg_size=-1", "option max_msg_size is '-1'"},
      {base + "?stream", "option 'stream' has no value"},
      {"nats://app:" + secret + "@127.0.0.1:99999?stream=S", "the port '99999'"},
      {"nats://app:" + secret + "@:4222?stream=S", "the host is empty"},
      {"nats://app@127.0.0.1?stream=S", "the user has no password"},
      {"tls://app:" + secret + "@127.0.0.1?stream=S", "TLS (tls://) is not supported"},
      {"amqp://app:" + secret + "@127.0.0.1?stream=S", "the scheme is not nats://"},
      {base + "/path?stream=S", "a NATS URL has no path"},
      {"nats://app:bad%zz@127.0.0.1?stream=S", "the password has a '%'"},
  };
  for (const auto& [url, expected] : cases) {
    const std::string message = refusal(url);
    EXPECT_THAT(message, HasSubstr(expected)) << url;
    EXPECT_THAT(message, HasSubstr("expected nats://")) << url;
    EXPECT_THAT(message, Not(HasSubstr(secret))) << url;
  }
}

TEST(NatsUrl, TheTransportRequiresAStream) {
  try {
    NatsTransport transport("nats://app:pw-x@127.0.0.1:4222?subject=a.>");
    ADD_FAILURE() << "accepted a URL without a stream";
  } catch (const ConfigurationError& error) {
    EXPECT_THAT(error.what(), HasSubstr("names no stream; add ?stream=<name>"));
    EXPECT_THAT(error.what(), Not(HasSubstr("pw-x")));
  }
}

TEST(NatsUrl, PrintsMaskedAndNamesEachConsumerApart) {
  const ServerUrl url = parse_server_url(
      "nats://app:pw-x@127.0.0.1:28400?stream=ORDERS&subject=orders.>&"
      "ack_wait=5s");
  EXPECT_EQ(printable(url), "nats://app:***@127.0.0.1:28400?stream=ORDERS&subject=orders.>");
  EXPECT_EQ(address(url), "nats://127.0.0.1:28400");
  NatsTransport transport("nats://app:pw-x@127.0.0.1:28400?stream=ORDERS");
  EXPECT_THAT(transport.describe(), Not(HasSubstr("pw-x")));
  EXPECT_NE(transport.consumer_name("orders.a_b", "billing"),
            transport.consumer_name("orders.a.b", "billing"));
  EXPECT_EQ(transport.consumer_name("orders.placed", ""),
            transport.consumer_name("orders.placed", "default"));
  EXPECT_EQ(transport.consumer_name("orders.placed", "billing").find('.'), std::string::npos);
}

TEST(NatsSubject, MatchesAsNatsDoes) {
  EXPECT_TRUE(subject_matches("orders.>", "orders.placed"));
  EXPECT_TRUE(subject_matches("orders.>", "orders.placed.dead-letter"));
  EXPECT_FALSE(subject_matches("orders.>", "orders"));
  EXPECT_TRUE(subject_matches("*.placed", "orders.placed"));
  EXPECT_FALSE(subject_matches("orders.*", "orders.placed.dead-letter"));
  EXPECT_TRUE(is_publish_subject("docket-demo.orders"));
  EXPECT_FALSE(is_publish_subject("orders.*"));
  EXPECT_FALSE(is_publish_subject("orders..placed"));
  EXPECT_FALSE(is_publish_subject("orders placed"));
}

}  // namespace
}  // namespace docket::nats::detail::test
