// The Redis Streams transport (docket/transports/transport.h, docket/spi/transport.h):
//
//   #include "docket/redis/transport.h"
//   docket::redis::StreamsTransport transport("redis://:pw@127.0.0.1:6379/0?group=billing");
//
// or, naming no broker in the code, docket::open_transport(url)
// (docket/transports/open_transport.h). The URL's form and options, the entry's fields
// and how the stream is trimmed: docs/redis-streams.md.
//
// A message is XADDed to the stream stream_key(destination) (the URL's stream_prefix,
// then the destination verbatim) as one entry: the payload in the field "data", then
// the CloudEvents binary-mode attributes ("ce_id" is the outbox id) and the
// application's headers as fields. Publishing is pipelined, a reply per message, in
// rounds that keep each ordering key's order. By default a stream exists once a group
// subscribed to its destination (XGROUP CREATE ... MKSTREAM), and a publish to a
// destination no group ever subscribed to is kUnroutable (XADD NOMKSTREAM), so that
// nothing is written where nobody reads; create_stream=publish creates it on publish.
//
// A consumer group of a destination is a Redis consumer group of its stream, created
// at id 0: it reads everything the stream holds, including what was published before
// the group existed. Each subscription is one consumer of the group (XREADGROUP).
//
// Invariants: the stream is trimmed (XTRIM MINID) only below the lowest entry that
// some group has not read or not acknowledged, so no group loses an unread message; a
// destination is 1 to 512 bytes without control characters (ConfigurationError on
// subscribe, kRefused on publish); its dead-letter destination is
// "<destination>.dead-letter", whose stream dead_letter() creates.
//
// Thread-safety: publish_batch() and trim() from any number of threads (serialised on
// one publishing connection); subscribe() from any thread, each subscription on a connection of its
// own, and may outlive the transport object.
#ifndef DOCKET_REDIS_TRANSPORT_H_
#define DOCKET_REDIS_TRANSPORT_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/transports/transport.h"

namespace docket::redis {

class StreamsTransport final : public Transport {
 public:
  // Parses `url`. Throws ConfigurationError naming what is wrong when it does not
  // parse. Connects on first use, not here.
  explicit StreamsTransport(std::string_view url);
  ~StreamsTransport() override;

  // Creates the consumer group `group` (the URL's group when empty) of `destination`'s
  // stream, and the stream, when they do not exist. Idempotent. Throws
  // ConfigurationError for a bad destination or a key of another type, TransportError
  // when the server cannot be reached.
  void declare_group(std::string_view destination, std::string_view group);

  // The key of `destination`'s stream: the URL's stream_prefix, then the destination.
  std::string stream_key(std::string_view destination) const;

  // Trims `destination`'s stream below the lowest entry a group has not read or not
  // acknowledged (publishing does it every trim_interval_ms); returns how many entries
  // went. Throws TransportError when the server cannot be reached.
  long long trim(std::string_view destination);

  // "Redis Streams redis://:***@host:port/db?...".
  std::string describe() const override;

 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override;
  std::unique_ptr<spi::SubscriptionChannel> do_subscribe(
      const SubscriptionOptions& options) override;

 private:
  struct State;  // the URL, the publishing pool, when each stream was last trimmed
  std::unique_ptr<State> state_;
};

}  // namespace docket::redis

#endif  // DOCKET_REDIS_TRANSPORT_H_
