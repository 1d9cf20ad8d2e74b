// One connection of the raw Redis baselines of `docket bench` (bench/bench_provider.h),
// straight on hiredis, and what the bench's set-up and checks send through it.
//
// The raw sides measure what Redis itself allows, so nothing of docket's client runs
// here: no pool, no reconnection, no replica WAIT, no reply checks beyond the error
// reply. The URL is parsed by the provider's parser (the same host, port, password,
// database and prefix as docket's side), and the keys are those of
// src/providers/redis/redis_keyspace.h, so that both sides' data have one shape and the
// checks read them alike.
//
// Round trips: every read() of a pipeline's replies (one command or many sent together)
// counts one into round_trips(), unless the connection is kUncounted (the claim bench's
// effect writer, which the bench counts itself, and the checks). Connecting,
// authenticating, selecting and loading a script are set-up, before the clock, and are
// not counted.
//
// Invariant: a reply is owned once (RawReply frees it); an error reply or a failed
// connection throws InfrastructureError naming the command and the server.
//
// Thread-safety: a RawRedis belongs to one thread; round_trips() may be read from any.
#ifndef DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_H_
#define DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_H_

#include <hiredis.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "providers/redis/redis_url.h"

namespace docket::bench {

struct FreeRawReply {
  void operator()(redisReply* reply) const noexcept { freeReplyObject(reply); }
};
using RawReply = std::unique_ptr<redisReply, FreeRawReply>;

// A reply's string (a bulk or status string), or "" for nil.
std::string_view reply_text(const redisReply& reply) noexcept;
// A reply's integer, or its string parsed as one (Lua numbers arrive as integers).
long long reply_integer(const redisReply& reply);

class RawRedis {
 public:
  enum class Counting { kCounted, kUncounted };

  // Connects to the server of the Redis store URL `url`, authenticates and selects its
  // database. Throws InfrastructureError when it cannot.
  explicit RawRedis(const std::string& url, Counting counting = Counting::kCounted);

  const redis::detail::RedisUrl& url() const noexcept { return url_; }

  // Queues one command (sent at the next read()).
  void append(std::span<const std::string_view> args);
  // Sends what is queued and reads `replies` replies: one round trip.
  std::vector<RawReply> read(std::size_t replies);
  // One command, one round trip.
  RawReply run(std::span<const std::string_view> args);
  RawReply run(std::initializer_list<std::string_view> args) {
    return run(std::span<const std::string_view>(args.begin(), args.size()));
  }

  // SCRIPT LOAD `source` (set-up, not counted): its SHA1, for EVALSHA.
  std::string load_script(std::string_view source);

  // Calls `page` with the keys matching the glob `pattern`, a SCAN page at a time.
  void scan(std::string_view pattern, const std::function<void(const redisReply& keys)>& page);

  // Round trips of every counted raw connection of this process so far.
  static std::uint64_t round_trips() noexcept;

 private:
  struct Free {
    void operator()(redisContext* context) const noexcept { redisFree(context); }
  };
  [[noreturn]] void fail(std::string_view what) const;
  RawReply read_one(std::string_view what);
  // One command's reply, an error reply returned as it is (set-up, not counted).
  RawReply command_reply(std::initializer_list<std::string_view> args);

  redis::detail::RedisUrl url_;
  Counting counting_;
  std::unique_ptr<redisContext, Free> context_;
  std::vector<const char*> argv_;
  std::vector<std::size_t> lengths_;
};

// `text` with the glob characters of SCAN MATCH (* ? [ ] \) escaped.
std::string glob_escape(std::string_view text);

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_H_
