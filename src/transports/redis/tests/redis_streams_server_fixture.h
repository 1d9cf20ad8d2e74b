// What the Redis Streams transport's server tests share: the shared test server at
// DOCKET_TEST_REDIS_URL (the test fails, never skips, without it), a stream_prefix no
// other test uses, whose keys TearDown() deletes, and an admin connection for what the
// tests do behind the transport's back (a dead consumer's XREADGROUP, a foreign entry).
//
// Thread-safety: one test's thread.
#ifndef DOCKET_TRANSPORTS_REDIS_TESTS_REDIS_STREAMS_SERVER_FIXTURE_H_
#define DOCKET_TRANSPORTS_REDIS_TESTS_REDIS_STREAMS_SERVER_FIXTURE_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "docket/transports/transport_message.h"
#include "providers/redis/redis_connection.h"
#include "providers/redis/redis_url.h"

namespace docket::redis::streams::test {

class RedisStreamsServerTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // The server's URL with the test's stream_prefix and `extra` parameters ("&a=b...").
  std::string transport_url(std::string_view extra = "") const;
  detail::Connection& admin() { return *admin_; }
  std::string stream_of(std::string_view destination) const {
    return prefix_ + std::string(destination);
  }
  TransportMessage message(std::string_view id, std::string_view destination) const;

  std::string base_url_;
  detail::RedisUrl server_;
  std::string prefix_;
  std::unique_ptr<detail::Connection> admin_;
};

}  // namespace docket::redis::streams::test

#endif  // DOCKET_TRANSPORTS_REDIS_TESTS_REDIS_STREAMS_SERVER_FIXTURE_H_
