// A subscription of the Redis Streams transport (docket/spi/transport.h): one consumer
// of a Redis consumer group, on a connection of its own, named
// "<host>-<pid>-<random>" so that no two subscriptions share a pending entries list.
//
//   next               hands out, in this order: a returned delivery whose delay passed
//                      (XCLAIM to itself: its delivery count goes up by one); an entry
//                      it fetched, unless a returned delivery of its ordering key waits;
//                      else it fetches at most the room left under the prefetch, in one
//                      round trip, what a dead consumer left (XAUTOCLAIM of entries idle
//                      for claim_idle_ms, counts read back with XPENDING) and new entries
//                      (XREADGROUP >), and, when nothing came, blocks on XREADGROUP for
//                      at most a second at a time until the wait ends
//   acknowledge        XACK, sent with the channel's next round trip (a fetch, a
//                      refresh of idle times, close()), or at once when 64 wait: a
//                      consumer pays no round trip of its own per message (an
//                      acknowledgement lost with its process only means a redelivery,
//                      which the inbox collapses)
//   return_with_delay  kept by the channel (still in its pending list) until the delay
//                      passed, and its ordering key's later entries with it, so that it
//                      comes before them
//   dead_letter        MULTI, XADD of a copy with kDeadLetterErrorHeader and
//                      kDeadLetterDeliveriesHeader to the dead-letter destination's
//                      stream, XACK, EXEC: moved at once, never twice; when it fails,
//                      TransportError and the delivery stays held
//   close              every entry it holds handed to the group: XCLAIM to the consumer
//                      "docket-returned" with its delivery count (one less for an entry
//                      never handed out) and an idle time of claim_idle_ms (less the
//                      delay still to run for a returned one, and for its key's later
//                      entries), so that the group's next XAUTOCLAIM takes them, in
//                      stream order; then XGROUP DELCONSUMER of itself, in a script
//                      that deletes it only when its pending list is empty (deleting a
//                      consumer drops its pending entries unacknowledged)
//
// While the channel holds entries, next() resets their idle time (XCLAIM ... JUSTID)
// every third of claim_idle_ms, so that no other consumer takes them for a dead
// consumer's; a handler that runs longer than claim_idle_ms between two calls of
// next() may see its message delivered to another consumer too (the inbox collapses
// the copy). An entry taken over from a dead consumer past max_deliveries deliveries is
// dead-lettered, not handed out; an entry that is not a docket message
// (redis_streams_wire.h) is dead-lettered as it is, fields and all, with the decoding
// error.
//
// A lost connection is reopened by next() with backoff (50 ms doubling to 2 s); what
// the channel held is forgotten (settling its tags is ignored) and taken back from the
// consumer's pending list on the new connection (XPENDING, XCLAIM), each flagged
// redelivered.
//
// Thread-safety: one thread at a time (docket/spi/transport.h).
#ifndef DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_CHANNEL_H_
#define DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_CHANNEL_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/spi/transport.h"
#include "providers/redis/redis_connection.h"
#include "transports/redis/redis_streams_entries.h"
#include "transports/redis/redis_streams_url.h"

namespace docket::redis::streams {

struct ChannelRoute {
  std::string destination;
  std::string stream;  // its key
  std::string group;
  std::string dead_letter_destination;
  std::string dead_letter_stream;
  std::size_t prefetch = 16;
};

class StreamsChannel final : public spi::SubscriptionChannel {
 public:
  // Connects and creates the group (and the stream) when missing. Throws
  // TransportError when the server cannot be reached, ConfigurationError when it
  // refuses the password or the stream's key holds another type.
  StreamsChannel(StreamsUrl url, ChannelRoute route, std::string transport);
  ~StreamsChannel() override;

  std::optional<Delivery> next(std::chrono::milliseconds wait) override;
  void acknowledge(std::uint64_t tag) override;
  void return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                         std::string_view error) override;
  void dead_letter(std::uint64_t tag, std::string_view error) override;
  void close() override;

 private:
  using Clock = std::chrono::steady_clock;
  // (redis_streams_channel.cc: connecting and handing out; redis_streams_settling.cc:
  // what it does with what it holds.)
  struct Entry {  // an entry of the stream in this consumer's pending list
    std::string id;
    Delivery delivery;
    bool handed_out = false;  // once: its delivery count is the server's
  };
  struct Waiting {
    Entry entry;
    Clock::time_point due;
  };

  void connect();
  void lost();  // forgets the connection and what it held
  bool connected_or_waited(Clock::time_point deadline);
  void refresh_idle();
  std::optional<Delivery> due_return();
  std::optional<Delivery> from_buffer();
  void fetch(std::optional<std::chrono::milliseconds> block);
  void take(std::vector<StreamEntry> entries, const std::map<std::string, std::uint32_t>* counts);
  Delivery hand_out(Entry entry);
  // MULTI, XADD to the dead-letter stream, XACK, EXEC. Throws InfrastructureError.
  void move_to_dead_letters(const std::string& id, const Fields& fields);
  std::string what_of(std::string_view doing) const;
  detail::Command take_acks();  // XACK of acks_, which it empties
  static const std::optional<std::string>& key_of(const Delivery& delivery) {
    return delivery.message.ordering_key;
  }

  StreamsUrl url_;
  ChannelRoute route_;
  std::string transport_;  // "Redis Streams redis://:***@..."
  std::string consumer_;
  std::unique_ptr<detail::Connection> connection_;
  bool closed_ = false;
  std::map<std::uint64_t, Entry> held_;  // handed out, unsettled, by tag
  std::deque<Entry> buffer_;             // fetched, not yet handed out, in stream order
  std::vector<Waiting> waiting_;         // returned, until their delay passed
  std::vector<std::string> acks_;        // acknowledged, XACK not sent yet
  std::uint64_t next_tag_ = 1;
  std::string autoclaim_cursor_ = "0-0";
  Clock::time_point refreshed_ = Clock::now();
  Clock::time_point reconnect_at_{};
  std::chrono::milliseconds backoff_{0};
};

}  // namespace docket::redis::streams

#endif  // DOCKET_TRANSPORTS_REDIS_REDIS_STREAMS_CHANNEL_H_
