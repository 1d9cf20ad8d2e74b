// A key prefix of one's own on the Redis test server, so that tests in parallel ctest
// processes never see each other's keys: url() is DOCKET_TEST_REDIS_URL (scripts/
// redis-start.sh) with a prefix no other process or earlier call uses. Every key under
// the prefix is deleted on construction (a leftover of a crashed run) and on
// destruction. A test that needs Redis fails, never skips, when the variable is missing.
//
// Thread-safety: construct and destroy on one thread; url() and prefix() are constants;
// count() may be called from many threads.
#ifndef DOCKET_PROVIDERS_REDIS_TESTS_REDIS_DATABASE_H_
#define DOCKET_PROVIDERS_REDIS_TESTS_REDIS_DATABASE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "providers/redis/redis_pool.h"

namespace docket::test_support {

inline constexpr std::string_view kRedisUrlVariable = "DOCKET_TEST_REDIS_URL";

// The value of DOCKET_TEST_REDIS_URL (redis://:PASSWORD@127.0.0.1:28600/0). Throws
// std::runtime_error, which fails the calling test, saying how to start the server when
// it is unset or empty.
std::string redis_test_url();

class RedisDatabase {
 public:
  RedisDatabase();
  ~RedisDatabase();
  RedisDatabase(const RedisDatabase&) = delete;
  RedisDatabase& operator=(const RedisDatabase&) = delete;

  // redis://:PASSWORD@127.0.0.1:PORT/0?prefix=<prefix>
  const std::string& url() const noexcept { return url_; }
  // "docket-test-...:"
  const std::string& prefix() const noexcept { return prefix_; }

  // The keys whose names start with prefix() + `base`, counted with SCAN.
  std::int64_t count(std::string_view base) const;
  // A pool on url(), for the tests' own commands.
  redis::detail::Pool& pool() const noexcept { return *pool_; }

 private:
  void drop_keys() const;

  std::string prefix_;
  std::string url_;
  std::unique_ptr<redis::detail::Pool> pool_;
};

}  // namespace docket::test_support

#endif  // DOCKET_PROVIDERS_REDIS_TESTS_REDIS_DATABASE_H_
