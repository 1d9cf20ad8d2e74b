// The raw limit of `docket bench events` on Redis: appends and loads with the effects
// docket's Redis event store has (a stream is a list of its events' global positions,
// index = version; each event a hash P event:{position} with its stream's terms; every
// position in the feed and the tenant's feed, drawn by INCR in commit order), sent
// directly through hiredis, each ONE EVALSHA of a script loaded once per connection:
//   append: checks that the stream's list is exactly as long as the expected version
//           says (LLEN) and only then writes every event; a conflict writes nothing and
//           answers the stream's version in the same reply;
//   load:   the stream's list (LRANGE) and each event's hash (HGETALL) in one run.
// The keys are those of redis_keyspace.h under the raw side's prefix.
//
// Thread-safety: one session per thread, each with its own connection.
#ifndef DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_EVENTS_H_
#define DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_EVENTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "event_session.h"
#include "redis_raw.h"

namespace docket::bench {

class RawEventsRedis final : public EventSession {
 public:
  // `url`: the raw side's Redis store URL.
  explicit RawEventsRedis(const std::string& url);

  void append(const AppendCall& call, StreamVersions& versions, AppendCounts& counts) override;
  std::size_t load(std::string_view aggregate_type, std::string_view aggregate_id) override;

 private:
  std::string stream_key(std::string_view aggregate_type, std::string_view aggregate_id) const;

  RawRedis db_;
  std::string append_sha_;
  std::string load_sha_;
  std::string position_key_;
  std::string feed_key_;
  std::string tenant_feed_key_;
  std::string events_namespace_;
  std::vector<std::string_view> args_;
  std::uint64_t sink_ = 0;  // what loads read, so that reading is not optimised out
};

// The bench tenant's streams of `aggregate_type` in the side `url`, read bypassing
// docket: each stream's list, and each listed event's version, which must be its index.
StoredStreams redis_stored_streams(const std::string& url, std::string_view aggregate_type);

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_REDIS_BENCH_REDIS_RAW_EVENTS_H_
