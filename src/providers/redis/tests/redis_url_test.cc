// The Redis store URL: every part parsed, every option range-checked, bad input
// refused with a message naming what is wrong, and the password never printed.
#include "providers/redis/redis_url.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"

namespace docket::redis::detail {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The message parse_url refuses `url` with (fails the test when it parses).
std::string refusal(const std::string& url) {
  try {
    parse_url(url);
  } catch (const ConfigurationError& e) {
    EXPECT_EQ(url_problem(url).has_value(), true) << url;
    return e.what();
  }
  ADD_FAILURE() << "parsed: " << url;
  return {};
}

TEST(RedisUrl, ParsesEveryPart) {
  const RedisUrl url = parse_url(
      "redis://:s%40cret@127.0.0.1:6380/3?prefix=app:&connect_timeout_ms=250&"
      "command_timeout_ms=1500&pool_size=4");
  EXPECT_EQ(url.host, "127.0.0.1");
  EXPECT_EQ(url.port, 6380);
  EXPECT_EQ(url.user, "");
  EXPECT_EQ(url.password, "s@cret");
  EXPECT_EQ(url.db, 3);
  EXPECT_EQ(url.prefix, "app:");
  EXPECT_EQ(url.connect_timeout_ms, 250);
  EXPECT_EQ(url.command_timeout_ms, 1500);
  EXPECT_EQ(url.pool_size, 4u);
  EXPECT_EQ(url.server(), "127.0.0.1:6380/3");
  EXPECT_EQ(url.key("dedup-index"), "app:dedup-index");
}

TEST(RedisUrl, HasDefaults) {
  const RedisUrl url = parse_url("redis://cache.internal");
  EXPECT_EQ(url.port, 6379);
  EXPECT_EQ(url.db, 0);
  EXPECT_EQ(url.password, "");
  EXPECT_EQ(url.prefix, "docket:");
  EXPECT_EQ(url.connect_timeout_ms, 5000);
  EXPECT_EQ(url.command_timeout_ms, 10000);
  EXPECT_EQ(url.pool_size, 8u);
}

TEST(RedisUrl, TakesAnAclUserAndAnIpv6Host) {
  const RedisUrl url = parse_url("redis://app:pw@[::1]:7000/0");
  EXPECT_EQ(url.user, "app");
  EXPECT_EQ(url.password, "pw");
  EXPECT_EQ(url.host, "::1");
  EXPECT_EQ(url.server(), "[::1]:7000/0");
}

TEST(RedisUrl, RefusesOptionsOutOfRange) {
  EXPECT_THAT(refusal("redis://h:0"), HasSubstr("is not a number from 1 to 65535"));
  EXPECT_THAT(refusal("redis://h:65536"), HasSubstr("'65536' is not a number from 1 to 65535"));
  EXPECT_THAT(refusal("redis://h/-1"), HasSubstr("is not a database number"));
  EXPECT_THAT(refusal("redis://h/2147483648"), HasSubstr("is not a database number"));
  EXPECT_THAT(refusal("redis://h/x"), HasSubstr("is not a database number"));
  EXPECT_THAT(refusal("redis://h?pool_size=0"), HasSubstr("pool_size='0' is not a number from 1"));
  EXPECT_THAT(refusal("redis://h?pool_size=1025"), HasSubstr("from 1 to 1024"));
  EXPECT_THAT(refusal("redis://h?connect_timeout_ms=600001"), HasSubstr("from 1 to 600000"));
  EXPECT_THAT(refusal("redis://h?command_timeout_ms=1.5"), HasSubstr("from 1 to 600000"));
  EXPECT_THAT(refusal("redis://h?prefix="), HasSubstr("must be 1 to 256 bytes"));
  EXPECT_THAT(refusal("redis://h?prefix=" + std::string(257, 'a')), HasSubstr("1 to 256 bytes"));
  EXPECT_THAT(refusal("redis://h?prefix=a%20b"), HasSubstr("holds a space"));
}

TEST(RedisUrl, RequireFsyncTakesAlwaysAlone) {
  EXPECT_FALSE(parse_url("redis://h").require_fsync);
  EXPECT_TRUE(parse_url("redis://h?require_fsync=always").require_fsync);
  EXPECT_THAT(refusal("redis://h?require_fsync=everysec"),
              HasSubstr("require_fsync='everysec': the only value is 'always'"));
  EXPECT_THAT(refusal("redis://h?require_fsync=always&require_fsync=always"),
              HasSubstr("given twice"));
}

TEST(RedisUrl, ClientNameIsOnePrintableWordOfAtMost64Characters) {
  EXPECT_EQ(parse_url("redis://h").client_name, "");
  EXPECT_EQ(parse_url("redis://h?client_name=billing-relay").client_name, "billing-relay");
  EXPECT_EQ(parse_url("redis://h?client_name=" + std::string(64, 'n')).client_name.size(), 64U);
  for (const std::string& bad :
       {std::string(65, 'n'), std::string(""), std::string("a b"), std::string("a\tb")}) {
    EXPECT_THAT(refusal("redis://h?client_name=" + bad),
                HasSubstr("must be 1 to 64 printable ASCII characters without spaces"))
        << bad;
  }
  EXPECT_THAT(refusal("redis://h?client_name=a&client_name=b"), HasSubstr("given twice"));
}

TEST(RedisUrl, RefusesMalformedUrls) {
  EXPECT_THAT(refusal("rediss://h"), HasSubstr("starts with redis://"));
  EXPECT_THAT(refusal("redis://"), HasSubstr("names no host"));
  EXPECT_THAT(refusal("redis://h:"), HasSubstr("the port after ':' is missing"));
  EXPECT_THAT(refusal("redis://h#x"), HasSubstr("no fragment"));
  EXPECT_THAT(refusal("redis://h?pool_size=2&pool_size=3"), HasSubstr("given twice"));
  EXPECT_THAT(refusal("redis://h?timeout=3"),
              HasSubstr("'timeout' is unknown; the parameters are prefix"));
  EXPECT_THAT(refusal("redis://h?prefix"), HasSubstr("is not NAME=VALUE"));
  EXPECT_THAT(refusal("redis://secret@h"), HasSubstr("':PASSWORD' or 'USER:PASSWORD'"));
  EXPECT_THAT(refusal("redis://:@h"), HasSubstr("the password is empty"));
  EXPECT_THAT(refusal("redis://:p%zz@h"), HasSubstr("percent-encode"));
  EXPECT_THAT(refusal("redis://[::1"), HasSubstr("closed with ']'"));
}

TEST(RedisUrl, NeverPrintsThePassword) {
  const std::string message = refusal("redis://:hunter2@h:99999/0");
  EXPECT_THAT(message, Not(HasSubstr("hunter2")));
  EXPECT_THAT(message, HasSubstr("redis://:***@h:99999/0"));
  EXPECT_EQ(parse_url("redis://:hunter2@h/0").printable, "redis://:***@h/0");
  EXPECT_EQ(printable_url("redis://app:hunter2@h"), "redis://app:***@h");
}

}  // namespace
}  // namespace docket::redis::detail
