// A key prefix of one's own on the Redis test server (redis_database.h).
#include "providers/redis/tests/redis_database.h"

#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

#include "support/unique_name.h"

namespace docket::test_support {

std::string redis_test_url() {
  const char* url = std::getenv(std::string(kRedisUrlVariable).c_str());
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        std::string(kRedisUrlVariable) +
        " is not set, and this test needs a real Redis server. Start the throwaway one and "
        "export its URL:\n"
        "  export DOCKET_TEST_REDIS_URL=$(scripts/redis-start.sh)\n"
        "(scripts/redis-stop.sh stops it; scripts/test.sh does both by itself)");
  }
  return url;
}

RedisDatabase::RedisDatabase()
    : prefix_(unique_name("docket-test") + ":"),
      url_(redis_test_url() + "?prefix=" + prefix_),
      pool_(std::make_unique<redis::detail::Pool>(redis::detail::parse_url(url_))) {
  // The prefix is new (unique_name), so no key has it yet: nothing to drop, and a SCAN
  // of a server other tests fill would cost a pass over all of their keys.
}

RedisDatabase::~RedisDatabase() {
  try {
    drop_keys();
  } catch (...) {
    // The server went away under the test: its keys go with the throwaway server.
  }
}

std::int64_t RedisDatabase::count(std::string_view base) const {
  using redis::detail::Replay;
  const std::string pattern = prefix_ + std::string(base) + "*";
  std::int64_t found = 0;
  std::string cursor = "0";
  do {
    const redis::detail::Reply page =
        pool_->run({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"}, Replay::kSafe);
    page.ok();
    cursor = *page.string_at(0);
    found += static_cast<std::int64_t>(page.strings_at(1).size());
  } while (cursor != "0");
  return found;
}

void RedisDatabase::drop_keys() const {
  using redis::detail::Replay;
  const std::string pattern = prefix_ + "*";
  std::string cursor = "0";
  do {
    const redis::detail::Reply page =
        pool_->run({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"}, Replay::kSafe);
    page.ok();
    cursor = *page.string_at(0);
    redis::detail::Command del = {"DEL"};
    for (std::string& key : page.strings_at(1)) {
      del.push_back(std::move(key));
    }
    if (del.size() > 1) {
      pool_->run(del, Replay::kSafe).ok();
    }
  } while (cursor != "0");
}

}  // namespace docket::test_support
