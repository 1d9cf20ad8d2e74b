// What a server's persistence gives docket's commits, in words, and the refusal of one
// that does not fsync every write when the URL asks require_fsync=always.
#include "providers/redis/redis_durability.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::redis::detail {
namespace {

using ::testing::HasSubstr;

TEST(RedisDurability, EachSettingIsStatedWithWhatACrashLoses) {
  EXPECT_THAT(describe({.append_only = true, .fsync = "always"}),
              HasSubstr("survives a crash of the server"));
  EXPECT_THAT(describe({.append_only = true, .fsync = "everysec"}),
              HasSubstr("up to about a second of acknowledged commits"));
  EXPECT_THAT(describe({.append_only = true, .fsync = "no"}),
              HasSubstr("the operating system decides"));
  EXPECT_THAT(describe({.append_only = false, .fsync = "always"}),
              HasSubstr("every commit since its last RDB snapshot"));
}

TEST(RedisDurability, RequireFsyncRefusesAServerThatDoesNotFsyncEveryWrite) {
  const RedisUrl required = parse_url("redis://h:6379/0?require_fsync=always");
  EXPECT_NO_THROW(check_durability({.append_only = true, .fsync = "always"}, required));
  try {
    check_durability({.append_only = true, .fsync = "everysec"}, required);
    FAIL() << "no refusal";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Redis at h:6379/0 runs appendonly yes, appendfsync "
                                    "everysec"));
    EXPECT_THAT(e.what(), HasSubstr("set `appendonly yes` and `appendfsync always`"));
  }
  EXPECT_THROW(check_durability({.append_only = false, .fsync = "always"}, required),
               ConfigurationError);
  // Not asked: whatever the server runs is accepted.
  EXPECT_NO_THROW(
      check_durability({.append_only = false, .fsync = "no"}, parse_url("redis://h:6379/0")));
}

}  // namespace
}  // namespace docket::redis::detail
