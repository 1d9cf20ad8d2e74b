// The raw limit of `docket bench relay` on Redis Streams: the run's messages XADDed
// through hiredis directly, each batch pipelined (every XADD appended, then every reply
// read: one round trip per batch), with no docket code in the loop.
//
// Set-up (not measured) uses the transport's client layer: the URL parsed as the
// transport parses it, and one docket connection opened and dropped first, so that a
// server down or a wrong password is the error docket gives; each message converted
// to the XADD docket's transport sends (redis_streams_wire.h, redis_streams_commands.h:
// the same stream, NOMKSTREAM as the URL says, the same fields), kept as argument
// vectors. The measured loop is plain hiredis: redisAppendCommandArgv per message,
// then redisGetReply per message.
//
// Invariant: a reply that is not an entry id (the stream missing, an error) or a lost
// connection ends the session with an InfrastructureError naming the server, the
// stream and the message.
//
// Thread-safety: none; one thread at a time.
#ifndef DOCKET_TRANSPORTS_REDIS_BENCH_REDIS_STREAMS_RAW_PUBLISHER_H_
#define DOCKET_TRANSPORTS_REDIS_BENCH_REDIS_STREAMS_RAW_PUBLISHER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench_transport.h"
#include "providers/redis/redis_connection.h"

struct redisContext;

namespace docket::redis::streams {

class RawStreamsPublisher final : public bench::RawPublishSession {
 public:
  // Throws ConfigurationError for a URL the transport refuses or a wrong password,
  // InfrastructureError when the server cannot be reached.
  RawStreamsPublisher(std::string_view url, std::span<const TransportMessage> messages);
  ~RawStreamsPublisher() override;

  void publish(bench::ItemRange items, std::size_t batch) override;
  std::uint64_t confirm_waits() const noexcept override { return confirm_waits_; }
  std::uint64_t confirmed() const noexcept override { return confirmed_; }

 private:
  struct Wire {
    detail::Command command;  // XADD ..., owned
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
  };
  struct FreeContext {
    void operator()(redisContext* context) const noexcept;
  };
  [[noreturn]] void fail(const std::string& problem) const;

  std::string server_;  // "host:port/db", for errors
  std::vector<Wire> messages_;
  std::uint64_t confirm_waits_ = 0;
  std::uint64_t confirmed_ = 0;
  std::unique_ptr<redisContext, FreeContext> context_;
};

}  // namespace docket::redis::streams

#endif  // DOCKET_TRANSPORTS_REDIS_BENCH_REDIS_STREAMS_RAW_PUBLISHER_H_
