// What the Redis Streams transport's server tests share (redis_streams_server_fixture.h).
#include "transports/redis/tests/redis_streams_server_fixture.h"

#include <cstdlib>

#include "support/unique_name.h"

namespace docket::redis::streams::test {

void RedisStreamsServerTest::SetUp() {
  const char* url = std::getenv("DOCKET_TEST_REDIS_URL");
  ASSERT_TRUE(url != nullptr && *url != '\0')
      << "DOCKET_TEST_REDIS_URL is not set: these tests need the throwaway Redis server "
         "(scripts/); export its URL";
  base_url_ = url;
  server_ = detail::parse_url(base_url_);
  prefix_ = "streams-test-" + test_support::unique_suffix() + ":";
  admin_ = std::make_unique<detail::Connection>(server_);
}

void RedisStreamsServerTest::TearDown() {
  if (!admin_)
    return;
  std::string cursor = "0";
  do {
    const auto reply = admin_->run({"SCAN", cursor, "MATCH", prefix_ + "*", "COUNT", "1000"});
    cursor = reply.string_at(0).value_or("0");
    for (const std::string& key : reply.strings_at(1))
      admin_->run({"DEL", key}).ok();
  } while (cursor != "0");
}

std::string RedisStreamsServerTest::transport_url(std::string_view extra) const {
  return base_url_ + (base_url_.find('?') == std::string::npos ? "?" : "&") +
         "stream_prefix=" + prefix_ + std::string(extra);
}

TransportMessage RedisStreamsServerTest::message(std::string_view id,
                                                 std::string_view destination) const {
  return TransportMessage{
      .tenant = "acme",
      .envelope =
          Envelope{.message_id = std::string(id), .event_type = "OrderPlaced", .payload = "{}"},
      .destination = std::string(destination)};
}

}  // namespace docket::redis::streams::test
