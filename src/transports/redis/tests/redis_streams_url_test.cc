// The Redis Streams transport's URL (redis_streams_url.h): defaults, every parameter's
// range, the store URL's parameters passed through, and refusals that name what is
// wrong without printing the password.
#include "transports/redis/redis_streams_url.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"

namespace docket::redis::streams {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string refusal(const std::string& url) {
  try {
    parse_streams_url(url);
  } catch (const ConfigurationError& error) {
    return error.what();
  }
  ADD_FAILURE() << "accepted: " << url;
  return {};
}

TEST(RedisStreamsUrl, DefaultsWhenOnlyTheServerIsGiven) {
  const StreamsUrl url = parse_streams_url("redis://:s3cret@127.0.0.1:6390/2");
  EXPECT_EQ(url.server.host, "127.0.0.1");
  EXPECT_EQ(url.server.port, 6390);
  EXPECT_EQ(url.server.db, 2);
  EXPECT_EQ(url.server.password, "s3cret");
  EXPECT_EQ(url.stream_prefix, "docket:stream:");
  EXPECT_EQ(url.group, "docket");
  EXPECT_EQ(url.claim_idle.count(), 60000);
  EXPECT_EQ(url.max_deliveries, 20U);
  EXPECT_EQ(url.max_message_bytes, 16777216U);
  EXPECT_FALSE(url.create_on_publish);
  EXPECT_TRUE(url.trim);
  EXPECT_EQ(url.trim_interval.count(), 1000);
  EXPECT_THAT(url.printable(), Not(HasSubstr("s3cret")));
}

TEST(RedisStreamsUrl, ReadsEveryParameterAndPassesTheConnectionsOnes) {
  const StreamsUrl url = parse_streams_url(
      "redis://127.0.0.1?stream_prefix=shop%3As:&group=billing&claim_idle_ms=1000&"
      "max_deliveries=3&max_message_bytes=4096&create_stream=publish&trim=off&"
      "trim_interval_ms=0&command_timeout_ms=2500&connect_timeout_ms=700");
  EXPECT_EQ(url.stream_prefix, "shop:s:");
  EXPECT_EQ(url.group, "billing");
  EXPECT_EQ(url.claim_idle.count(), 1000);
  EXPECT_EQ(url.max_deliveries, 3U);
  EXPECT_EQ(url.max_message_bytes, 4096U);
  EXPECT_TRUE(url.create_on_publish);
  EXPECT_FALSE(url.trim);
  EXPECT_EQ(url.trim_interval.count(), 0);
  EXPECT_EQ(url.server.command_timeout_ms, 2500);
  EXPECT_EQ(url.server.connect_timeout_ms, 700);
}

TEST(RedisStreamsUrl, RefusesOutOfRangeValuesNamingTheParameterAndTheRange) {
  EXPECT_THAT(refusal("redis://h?claim_idle_ms=999"),
              HasSubstr("'claim_idle_ms' is '999'; give a whole number from 1000 to 86400000"));
  EXPECT_THAT(refusal("redis://h?max_deliveries=0"), HasSubstr("from 1 to 1000000"));
  EXPECT_THAT(refusal("redis://h?max_message_bytes=536870913"), HasSubstr("to 536870912"));
  EXPECT_THAT(refusal("redis://h?trim_interval_ms=-1"), HasSubstr("trim_interval_ms"));
  EXPECT_THAT(refusal("redis://h?claim_idle_ms=12x"), HasSubstr("'12x'"));
  EXPECT_THAT(refusal("redis://h?create_stream=always"), HasSubstr("give subscribe or publish"));
  EXPECT_THAT(refusal("redis://h?trim=maxlen"), HasSubstr("give acked or off"));
  EXPECT_THAT(refusal("redis://h?stream_prefix=a%20b"), HasSubstr("without spaces"));
  EXPECT_THAT(refusal("redis://h?group="), HasSubstr("'group' must be 1 to 256 bytes"));
  EXPECT_THAT(refusal("redis://h?pool_size=0"), HasSubstr("pool_size"));
}

TEST(RedisStreamsUrl, RefusesUnknownRepeatedAndStorePrefixParameters) {
  EXPECT_THAT(refusal("redis://h?stream=orders"),
              HasSubstr("'stream' is unknown; the transport's are stream_prefix"));
  EXPECT_THAT(refusal("redis://h?group=a&group=b"), HasSubstr("given twice"));
  EXPECT_THAT(refusal("redis://h?prefix=app:"), HasSubstr("stream_prefix"));
  EXPECT_THAT(refusal("redis://h?group"), HasSubstr("not NAME=VALUE"));
}

TEST(RedisStreamsUrl, AMalformedUrlIsRefusedWithoutItsPassword) {
  const std::string refused = refusal("redis://:hunter2@127.0.0.1:99999/0?group=g");
  EXPECT_THAT(refused, Not(HasSubstr("hunter2")));
  EXPECT_THAT(refused, HasSubstr("port"));
  EXPECT_THAT(refusal("amqp://:hunter2@h"), Not(HasSubstr("hunter2")));
  EXPECT_THAT(refusal("redis://:hunter2@h?claim_idle_ms=1"), Not(HasSubstr("hunter2")));
}

}  // namespace
}  // namespace docket::redis::streams
