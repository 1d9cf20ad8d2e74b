// The pubsub:// URL (pubsub_url.h) and the names it leads to (pubsub_names.h): what is
// accepted, what is refused and that a refusal names what was wrong.
#include "transports/pubsub/pubsub_url.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "docket/pubsub/transport.h"
#include "transports/pubsub/pubsub_client.h"
#include "transports/pubsub/pubsub_names.h"

namespace docket::pubsub::detail {
namespace {

std::string refusal(const std::string& url) {
  try {
    parse_pubsub_url(url);
  } catch (const ConfigurationError& error) {
    return error.what();
  }
  return "(accepted)";
}

TEST(PubSubUrl, ReadsTheEmulatorFormWithItsOptions) {
  const PubSubUrl url = parse_pubsub_url(
      "pubsub://127.0.0.1:28500?project=docket-test&topic_prefix=app_&ack_deadline=30&"
      "max_message_size=4096&create=false");
  EXPECT_FALSE(url.googleapis);
  EXPECT_EQ(url.endpoint, "http://127.0.0.1:28500");
  EXPECT_EQ(url.project, "docket-test");
  EXPECT_EQ(url.topic_prefix, "app_");
  EXPECT_EQ(url.ack_deadline_seconds, 30);
  EXPECT_EQ(url.max_message_bytes, 4096U);
  EXPECT_FALSE(url.create);
}

TEST(PubSubUrl, ReadsTheServiceFormWithDefaults) {
  const PubSubUrl url = parse_pubsub_url("pubsub://googleapis?project=demo");
  EXPECT_TRUE(url.googleapis);
  EXPECT_EQ(url.endpoint, "https://pubsub.googleapis.com");
  EXPECT_EQ(url.ack_deadline_seconds, 60);
  EXPECT_EQ(url.max_message_bytes, kMaxMessageBytes);
  EXPECT_TRUE(url.create);
}

TEST(PubSubUrl, RefusesWhatItCannotServeNamingIt) {
  EXPECT_NE(refusal("pubsub://127.0.0.1:1").find("no project"), std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1?project=p").find("port"), std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=p&bogus=1").find("unknown option 'bogus'"),
            std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=p&project=q").find("twice"), std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=Upper").find("project id"), std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=p&ack_deadline=9").find("10 to 600"),
            std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=p&ack_deadline=601").find("10 to 600"),
            std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=p&max_message_size=10485761").find("10485760"),
            std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=p&max_message_size=0").find("max_message_size"),
            std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=p&create=yes").find("create"), std::string::npos);
  EXPECT_NE(refusal("pubsub://127.0.0.1:1?project=p&topic_prefix=a/b").find("topic_prefix"),
            std::string::npos);
  EXPECT_NE(refusal("amqp://127.0.0.1:1?project=p").find("pubsub://"), std::string::npos);
}

TEST(PubSubUrl, NeverPrintsATokenPastedIntoIt) {
  const std::string text = refusal("pubsub://ya29.SECRET@127.0.0.1:1?project=p");
  EXPECT_EQ(text.find("SECRET"), std::string::npos) << text;
  EXPECT_NE(text.find("DOCKET_PUBSUB_ACCESS_TOKEN"), std::string::npos) << text;
}

TEST(PubSubUrl, TheServiceNeedsAnAccessTokenAndNamesTheVariable) {
  const kit::http::JsonServiceOptions no_token{
      .environment = [](std::string_view) -> std::optional<std::string> { return std::nullopt; }};
  try {
    Client client(parse_pubsub_url("pubsub://googleapis?project=demo"), no_token);
    FAIL() << "a client without a token was made";
  } catch (const ConfigurationError& error) {
    EXPECT_NE(std::string(error.what()).find("DOCKET_PUBSUB_ACCESS_TOKEN"), std::string::npos);
  }
}

TEST(PubSubNames, MapsDestinationsToTopicsOneToOneAndChecksPubSubsRules) {
  EXPECT_EQ(topic_id("", "orders"), "orders");
  EXPECT_EQ(topic_id("app_", "orders.dead-letter"), "app_orders.dead-letter");
  EXPECT_EQ(topic_id("", "orders/eu"), "orders%2Feu");
  EXPECT_EQ(topic_id("", "orders%2Feu"), "orders%252Feu");  // never the same topic
  EXPECT_EQ(subscription_id("orders", ""), "orders-default");
  EXPECT_EQ(subscription_id("orders", "billing"), "orders-billing");
  EXPECT_THROW(topic_id("", "ab"), ConfigurationError);             // under 3 characters
  EXPECT_THROW(topic_id("", "1orders"), ConfigurationError);        // not a letter first
  EXPECT_THROW(topic_id("", "google-orders"), ConfigurationError);  // "goog"
  EXPECT_THROW(topic_id("", std::string(256, 'a')), ConfigurationError);
  EXPECT_NO_THROW(topic_id("", std::string(255, 'a')));
}

}  // namespace
}  // namespace docket::pubsub::detail
