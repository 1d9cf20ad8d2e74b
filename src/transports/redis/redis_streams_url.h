// The Redis Streams transport's URL: a Redis store URL (providers/redis/redis_url.h:
// host, port, database, password, timeouts, pool_size, require_fsync) with the
// transport's own parameters, each at most once:
//
//   redis://[[USER]:PASSWORD@]HOST[:PORT][/DB][?NAME=VALUE&...]
//   stream_prefix      prepended to a destination to name its stream (default
//                      "docket:stream:"), 1-256 bytes without spaces or control characters
//   group              the consumer group of a subscription that names none (default
//                      "docket"), 1-256 bytes, the same characters
//   claim_idle_ms      1000-86400000 (default 60000): how long a pending entry sits idle
//                      before another consumer takes it (its consumer is taken for dead)
//   max_deliveries     1-1000000 (default 20): an entry taken over from a dead consumer
//                      on its max_deliveries-th delivery is dead-lettered, not delivered
//   max_message_bytes  1-536870912 (default 16777216): a larger entry is refused for good
//   create_stream      subscribe (default): a publish to a stream no group created is
//                      kUnroutable; publish: XADD creates the stream
//   trim               acked (default): streams are trimmed below what every group read
//                      and acknowledged; off: never trimmed by docket
//   trim_interval_ms   0-86400000 (default 1000): how often publishing trims a stream
// `prefix` (the stores' key prefix) is refused: the transport's keys are stream_prefix's.
// A parameter the store URL does not know either is refused naming both lists.
//
// Thread-safety: immutable values and pure functions.
#ifndef DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_URL_H_
#define DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_URL_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "providers/redis/redis_url.h"

namespace docket::redis::streams {

inline constexpr std::string_view kStreamsUrlForm =
    "redis://[:PASSWORD@]HOST[:PORT][/DB][?stream_prefix=P&group=G&claim_idle_ms=N&"
    "max_deliveries=N&max_message_bytes=N&create_stream=subscribe|publish&trim=acked|off&"
    "trim_interval_ms=N]";

struct StreamsUrl {
  detail::RedisUrl server{};  // the connection's part; its printable masks the password
  std::string stream_prefix = "docket:stream:";
  std::string group = "docket";
  std::chrono::milliseconds claim_idle{60000};
  std::uint32_t max_deliveries = 20;
  std::size_t max_message_bytes = 16777216;
  bool create_on_publish = false;
  bool trim = true;
  std::chrono::milliseconds trim_interval{1000};

  // The URL as given, password masked.
  const std::string& printable() const noexcept { return server.printable; }
};

// Throws ConfigurationError naming the URL (password masked), what is wrong and the form.
StreamsUrl parse_streams_url(std::string_view url);

}  // namespace docket::redis::streams

#endif  // DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_URL_H_
