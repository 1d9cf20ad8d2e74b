// The Redis client against the real server (DOCKET_TEST_REDIS_URL): commands and
// pipelines on the pool, reconnection after the server killed the pool's connection,
// and the errors of a wrong password, a server that is not there and a database the
// server does not have, each naming the server and never the password.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "docket/stores/store_durability.h"
#include "providers/redis/redis_durability.h"
#include "providers/redis/redis_pool.h"
#include "providers/redis/redis_script.h"
#include "providers/redis/tests/redis_database.h"

namespace docket::redis::detail {
namespace {

using test_support::RedisDatabase;
using ::testing::HasSubstr;
using ::testing::Not;

// The test server's URL with `query` (pool_size=1, ...) appended.
std::string with(const RedisDatabase& database, const std::string& query) {
  return database.url() + "&" + query;
}

TEST(RedisClient, RunsCommandsAndPipelines) {
  const RedisDatabase database;
  Pool pool(parse_url(database.url()));
  const std::string key = database.prefix() + "k";
  EXPECT_EQ(pool.run({"SET", key, std::string("a\0b", 3)}, Replay::kSafe).ok().text(), "OK");
  EXPECT_EQ(pool.run({"GET", key}, Replay::kSafe).string(), std::string("a\0b", 3));
  const std::vector<Command> commands = {{"INCR", database.prefix() + "n"},
                                         {"INCR", database.prefix() + "n"},
                                         {"GET", database.prefix() + "missing"}};
  const std::vector<Reply> replies = pool.pipeline(commands, Replay::kUnsafe);
  ASSERT_EQ(replies.size(), 3u);
  EXPECT_EQ(replies[0].integer(), 1);
  EXPECT_EQ(replies[1].integer(), 2);
  EXPECT_TRUE(replies[2].is_nil());
  const Reply wrong = pool.run({"HGET", key, "f"}, Replay::kSafe);
  EXPECT_TRUE(wrong.is_error());
  EXPECT_THROW(wrong.ok(), InfrastructureError);
}

TEST(RedisClient, ReconnectsAfterTheServerKilledThePoolsConnection) {
  const RedisDatabase database;
  Pool pool(parse_url(with(database, "pool_size=1")));
  const long long first = pool.run({"CLIENT", "ID"}, Replay::kSafe).ok().integer();
  // Killed by another connection, as a server restart or an operator would.
  EXPECT_EQ(database.pool()
                .run({"CLIENT", "KILL", "ID", std::to_string(first)}, Replay::kUnsafe)
                .ok()
                .integer(),
            1);
  // The next command, even one that must not run twice, runs once on a new connection:
  // the closed one is found closed before anything is sent on it.
  const std::string key = database.prefix() + "counter";
  EXPECT_EQ(pool.run({"INCR", key}, Replay::kUnsafe).ok().integer(), 1);
  const long long second = pool.run({"CLIENT", "ID"}, Replay::kSafe).ok().integer();
  EXPECT_NE(second, first);
  EXPECT_EQ(pool.run({"GET", key}, Replay::kSafe).string(), "1");
}

TEST(RedisClient, EveryConnectionCarriesTheUrlsClientName) {
  const RedisDatabase database;
  Pool pool(parse_url(with(database, "client_name=billing-relay")));
  EXPECT_EQ(pool.run({"CLIENT", "GETNAME"}, Replay::kSafe).string(), "billing-relay");
  Pool unnamed(parse_url(database.url()));
  EXPECT_FALSE(unnamed.run({"CLIENT", "GETNAME"}, Replay::kSafe).string().has_value());
}

TEST(RedisClient, ScriptsRunBySha1AndAreReloadedAfterAFlush) {
  const RedisDatabase database;
  Pool pool(parse_url(database.url()));
  Script script("a test script", "return ARGV[1] .. '!'");
  EXPECT_EQ(script.run(pool, {"one"}, Replay::kUnsafe).string(), "one!");
  pool.run({"SCRIPT", "FLUSH"}, Replay::kSafe).ok();
  EXPECT_EQ(script.run(pool, {"two"}, Replay::kUnsafe).string(), "two!");
  pool.run({"SCRIPT", "FLUSH"}, Replay::kSafe).ok();
  const std::vector<Reply> pipelined = script.run_all(pool, {{"a"}, {"b"}, {"c"}}, Replay::kUnsafe);
  ASSERT_EQ(pipelined.size(), 3u);
  EXPECT_EQ(pipelined[0].string(), "a!");
  EXPECT_EQ(pipelined[2].string(), "c!");
  Script failing("a failing script", "return redis.call('NOSUCHCOMMAND')");
  try {
    failing.run(pool, {}, Replay::kUnsafe);
    FAIL() << "no error";
  } catch (const InfrastructureError& e) {
    EXPECT_THAT(e.what(), HasSubstr("failed a failing script"));
  }
}

TEST(RedisClient, AWrongPasswordIsRefusedNamingTheServerNotThePassword) {
  const RedisDatabase database;
  RedisUrl url = parse_url(database.url());
  url.password = "not-the-password";
  Pool pool(url);
  try {
    pool.run({"PING"}, Replay::kSafe);
    FAIL() << "no refusal";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("Redis at " + url.server() + " refused the URL's password"));
    EXPECT_THAT(e.what(), HasSubstr("check the password"));
    EXPECT_THAT(e.what(), Not(HasSubstr("not-the-password")));
  }
}

TEST(RedisClient, AServerThatWantsAPasswordTheUrlLacksIsRefusedSayingSo) {
  const RedisDatabase database;
  RedisUrl url = parse_url(database.url());
  url.password.clear();
  Pool pool(url);
  try {
    pool.run({"PING"}, Replay::kSafe);
    FAIL() << "no refusal";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("requires a password (NOAUTH)"));
    EXPECT_THAT(e.what(), HasSubstr("write it as redis://:PASSWORD@" + url.host));
  }
}

TEST(RedisClient, AServerThatIsNotThereIsNamedWithWhatToDo) {
  Pool pool(parse_url("redis://:pw@127.0.0.1:1/0?connect_timeout_ms=500"));
  try {
    pool.run({"PING"}, Replay::kSafe);
    FAIL() << "no refusal";
  } catch (const InfrastructureError& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot connect to Redis at 127.0.0.1:1/0"));
    EXPECT_THAT(e.what(), HasSubstr("start the server or check the URL's host and port"));
    EXPECT_THAT(e.what(), Not(HasSubstr("pw")));
  }
}

TEST(RedisClient, ADatabaseTheServerLacksIsRefused) {
  const RedisDatabase database;
  RedisUrl url = parse_url(database.url());
  url.db = 99;
  Pool pool(url);
  EXPECT_THROW(
      {
        try {
          pool.run({"PING"}, Replay::kSafe);
        } catch (const ConfigurationError& e) {
          EXPECT_THAT(e.what(), HasSubstr("refused database 99"));
          throw;
        }
      },
      ConfigurationError);
}

TEST(RedisClient, ACommandOverTheTimeoutFailsNamingIt) {
  const RedisDatabase database;
  Pool pool(parse_url(with(database, "command_timeout_ms=100&pool_size=1")));
  try {
    pool.run({"BLPOP", database.prefix() + "never-pushed", "1"}, Replay::kUnsafe);
    FAIL() << "no timeout";
  } catch (const ConnectionLostError& e) {
    EXPECT_THAT(e.what(), HasSubstr("command_timeout_ms=100"));
  }
  // The timed-out connection was dropped: the next command runs on a fresh one.
  EXPECT_EQ(pool.run({"PING"}, Replay::kSafe).ok().text(), "PONG");
}

// The test server fsyncs every write (scripts/redis-start.sh), which require_fsync=always
// accepts; told to fsync every second, it is refused before anything is sent.
TEST(RedisClient, RequireFsyncReadsTheServersSettingsOnEveryNewConnection) {
  const RedisDatabase database;
  Pool pool(parse_url(with(database, "require_fsync=always&pool_size=1")));
  Connection direct(parse_url(database.url()));
  EXPECT_TRUE(read_durability(direct, parse_url(database.url())).fsyncs_every_write());
  // What a service states when it starts (docket/stores/store_durability.h).
  const std::optional<std::string> stated = store_durability(database.url());
  ASSERT_TRUE(stated.has_value());
  EXPECT_THAT(*stated, HasSubstr("appendfsync always"));
  EXPECT_THAT(*stated, HasSubstr("survives a crash of the server"));
  EXPECT_THAT(*stated, Not(HasSubstr("docket-test-secret")));
  EXPECT_EQ(pool.run({"PING"}, Replay::kSafe).ok().text(), "PONG");

  // Restores the server's setting however the test ends.
  struct Restore {
    Pool& admin;
    ~Restore() {
      try {
        admin.run({"CONFIG", "SET", "appendfsync", "always"}, Replay::kSafe);
      } catch (const std::exception& e) {
        ADD_FAILURE() << "the test server's appendfsync was not restored: " << e.what();
      }
    }
  } restore{database.pool()};
  database.pool().run({"CONFIG", "SET", "appendfsync", "everysec"}, Replay::kSafe).ok();
  Pool fresh(parse_url(with(database, "require_fsync=always")));
  try {
    fresh.run({"SET", database.prefix() + "never", "1"}, Replay::kUnsafe);
    FAIL() << "no refusal";
  } catch (const ConfigurationError& e) {
    EXPECT_THAT(e.what(), HasSubstr("runs appendonly yes, appendfsync everysec"));
    EXPECT_THAT(e.what(), HasSubstr("docket writes nothing there"));
  }
  EXPECT_EQ(database.pool().run({"EXISTS", database.prefix() + "never"}, Replay::kSafe).integer(),
            0);
  EXPECT_THAT(store_durability(database.url()).value_or(""), HasSubstr("appendfsync everysec"));
}

}  // namespace
}  // namespace docket::redis::detail
