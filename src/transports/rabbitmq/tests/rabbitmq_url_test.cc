// The amqp:// URL: parsing, percent-decoding, defaults, options and their refusals,
// and the printable form that never shows the password. No server.
#include "transports/rabbitmq/rabbitmq_url.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"

namespace docket::rabbitmq::detail {
namespace {

std::string refusal_of(const std::string& url) {
  try {
    parse_broker_url(url);
  } catch (const ConfigurationError& error) {
    return error.what();
  }
  ADD_FAILURE() << url << " was accepted";
  return {};
}

TEST(RabbitmqUrl, ParsesEveryPart) {
  const BrokerUrl url =
      parse_broker_url("amqp://user:password@127.0.0.1:5673/vhost?exchange=orders&heartbeat=10");
  EXPECT_EQ(url.user, "user");
  EXPECT_EQ(url.password, "password");
  EXPECT_EQ(url.host, "127.0.0.1");
  EXPECT_EQ(url.port, 5673);
  EXPECT_EQ(url.vhost, "vhost");
  EXPECT_EQ(url.exchange, "orders");
  EXPECT_EQ(url.heartbeat_seconds, 10);
}

TEST(RabbitmqUrl, DefaultsThePortAndVhost) {
  for (const char* text : {"amqp://u:p@broker", "amqp://u:p@broker/", "amqp://u:p@broker/%2F"}) {
    const BrokerUrl url = parse_broker_url(text);
    EXPECT_EQ(url.port, 5672) << text;
    EXPECT_EQ(url.vhost, "/") << text;
  }
}

TEST(RabbitmqUrl, PercentDecodesUserPasswordVhostAndOptions) {
  const BrokerUrl url =
      parse_broker_url("amqp://us%40er:p%3Aw%2Fd%25@[::1]:5672/a%2Fb?exchange=or%20ders");
  EXPECT_EQ(url.user, "us@er");
  EXPECT_EQ(url.password, "p:w/d%");
  EXPECT_EQ(url.host, "::1");
  EXPECT_EQ(url.vhost, "a/b");
  EXPECT_EQ(url.exchange, "or ders");
}

TEST(RabbitmqUrl, ReadsTheLimitOptions) {
  const BrokerUrl url = parse_broker_url(
      "amqp://u:p@h/v?connect_timeout_ms=250&frame_max=8192&max_message_size=1024");
  EXPECT_EQ(url.connect_timeout.count(), 250);
  EXPECT_EQ(url.frame_max, 8192);
  EXPECT_EQ(url.max_message_size, 1024u);
}

TEST(RabbitmqUrl, RefusalsNameWhatIsWrongAndNeverThePassword) {
  struct Case {
    std::string url;
    std::string names;
  };
  const Case cases[] = {
      {"http://u:secret@h/v", "scheme is not amqp://"},
      {"amqps://u:secret@h/v", "TLS"},
      {"amqp://u:secret@/v", "host is empty"},
      {"amqp://u:secret@h:0/v", "port '0'"},
      {"amqp://u:secret@h:99999/v", "port '99999'"},
      {"amqp://u:secret@h:x/v", "port 'x'"},
      {"amqp://u:secret@h/a/b", "%2F"},
      {"amqp://u:secret@h/v%zz", "vhost has a '%'"},
      {"amqp://u:secret@h/v?exchnage=orders", "unknown option 'exchnage'"},
      {"amqp://u:secret@h/v?heartbeat=soon", "option heartbeat is 'soon'"},
      {"amqp://u:secret@h/v?heartbeat=1&heartbeat=2", "option heartbeat is given twice"},
      {"amqp://u:secret@h/v?frame_max=100", "option frame_max is '100'"},
      {"amqp://u:secret@h/v?exchange", "option 'exchange' has no value"},
      {"amqp://u:secret@h/v?exchange=", "option exchange must name"},
  };
  for (const Case& c : cases) {
    const std::string message = refusal_of(c.url);
    EXPECT_NE(message.find(c.names), std::string::npos) << c.url << ": " << message;
    EXPECT_EQ(message.find("secret"), std::string::npos) << c.url << ": " << message;
    EXPECT_NE(message.find("u:***@"), std::string::npos) << c.url << ": " << message;
  }
}

TEST(RabbitmqUrl, PrintableMasksThePassword) {
  const BrokerUrl url =
      parse_broker_url("amqp://docket:s%40cret@127.0.0.1:28200/docket?exchange=orders");
  EXPECT_EQ(printable(url), "amqp://docket:***@127.0.0.1:28200/docket?exchange=orders");
  EXPECT_EQ(printable(parse_broker_url("amqp://u:p@h")), "amqp://u:***@h:5672/%2F");
  EXPECT_EQ(printable_url_text("amqp://u:p@ss:w@h/v"), "amqp://u:***@h/v");
  EXPECT_EQ(printable_url_text("amqp://h/v"), "amqp://h/v");
}

}  // namespace
}  // namespace docket::rabbitmq::detail
