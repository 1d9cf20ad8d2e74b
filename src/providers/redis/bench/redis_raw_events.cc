#include "redis_raw_events.h"

#include <array>
#include <string>

#include "docket/core/tenant.h"
#include "docket/eventsourcing/stream_id.h"
#include "event_workload.h"
#include "providers/redis/redis_keyspace.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// ARGV: stream, tenant feed, position counter, feed, event namespace, expected length,
// n, tenant, aggregate type, aggregate id, type, payload, occurred_at, then n event
// ids. {0, new version} or, on a conflict, {1, the stream's version}.
constexpr std::string_view kRawAppendScript = R"lua(
local stream = ARGV[1]
local len = redis.call('LLEN', stream)
if len ~= tonumber(ARGV[6]) then return {1, len - 1} end
local n = tonumber(ARGV[7])
for e = 1, n do
  local pos = string.format('%d', redis.call('INCR', ARGV[3]))
  redis.call('HSET', ARGV[5] .. pos, 'position', pos, 'version', string.format('%d', len + e - 1),
             'tenant', ARGV[8], 'aggregate_type', ARGV[9], 'aggregate_id', ARGV[10],
             'event_id', ARGV[13 + e], 'type', ARGV[11], 'payload', ARGV[12],
             'occurred_at', ARGV[13])
  redis.call('RPUSH', stream, pos)
  redis.call('ZADD', ARGV[4], pos, pos)
  redis.call('ZADD', ARGV[2], pos, pos)
end
return {0, len + n - 1}
)lua";

// ARGV: stream, event namespace. Every event's hash, in version order.
constexpr std::string_view kRawLoadScript = R"lua(
local out = {}
for _, pos in ipairs(redis.call('LRANGE', ARGV[1], 0, -1)) do
  out[#out + 1] = redis.call('HGETALL', ARGV[2] .. pos)
end
return out
)lua";

std::string raw_stream_key_of(const redis::detail::RedisUrl& url, std::string_view aggregate_type,
                              std::string_view aggregate_id) {
  return redis::detail::event_stream_key(
      url, StreamId(TenantId(kBenchStreamTenant), aggregate_type, aggregate_id));
}

}  // namespace

RawEventsRedis::RawEventsRedis(const std::string& url) : db_(url) {
  append_sha_ = db_.load_script(kRawAppendScript);
  load_sha_ = db_.load_script(kRawLoadScript);
  position_key_ = db_.url().key(redis::detail::kEventPosition);
  feed_key_ = db_.url().key(redis::detail::kEventFeed);
  tenant_feed_key_ = redis::detail::event_tenant_feed_key(db_.url(), kBenchStreamTenant);
  events_namespace_ = db_.url().key(redis::detail::kEventRecords);
}

std::string RawEventsRedis::stream_key(std::string_view aggregate_type,
                                       std::string_view aggregate_id) const {
  return raw_stream_key_of(db_.url(), aggregate_type, aggregate_id);
}

void RawEventsRedis::append(const AppendCall& call, StreamVersions& versions,
                            AppendCounts& counts) {
  const std::int64_t expected = versions.get(call.stream);
  const std::string stream = stream_key(call.aggregate_type, call.aggregate_id);
  const std::string length = std::to_string(expected + 1);
  const std::string events = std::to_string(call.events);
  const std::string occurred_at = std::to_string(now_micros());
  args_.assign({"EVALSHA", append_sha_, "0", stream, tenant_feed_key_, position_key_, feed_key_,
                events_namespace_, length, events, kBenchStreamTenant, call.aggregate_type,
                call.aggregate_id, kBenchEventName, kBenchEventBody, occurred_at});
  for (std::size_t e = 0; e < call.events; ++e) {
    args_.push_back(call.ids->id(call.first_id + e));
  }
  const RawReply reply = db_.run(args_);
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2) {
    throw InfrastructureError("raw baseline: the Redis append script replied with no outcome");
  }
  const long long version = reply_integer(*reply->element[1]);
  versions.set(call.stream, version);
  if (reply_integer(*reply->element[0]) != 0) {
    ++counts.conflicts;
    return;
  }
  ++counts.ok;
  counts.events += call.events;
}

std::size_t RawEventsRedis::load(std::string_view aggregate_type, std::string_view aggregate_id) {
  const std::string stream = stream_key(aggregate_type, aggregate_id);
  const RawReply reply =
      db_.run({"EVALSHA", load_sha_, "0", stream, std::string_view(events_namespace_)});
  for (std::size_t e = 0; e < reply->elements; ++e) {
    const redisReply& event = *reply->element[e];
    for (std::size_t f = 0; f < event.elements; ++f) {
      sink_ += event.element[f]->len;
    }
  }
  return reply->elements;
}

StoredStreams redis_stored_streams(const std::string& url, std::string_view aggregate_type) {
  RawRedis db(url, RawRedis::Counting::kUncounted);
  const std::string events_namespace = db.url().key(redis::detail::kEventRecords);
  // Every stream key of the type: the key of aggregate id "x" with "x" cut off.
  std::string pattern = raw_stream_key_of(db.url(), aggregate_type, "x");
  pattern.pop_back();
  StoredStreams stored;
  db.scan(glob_escape(pattern) + "*", [&](const redisReply& keys) {
    for (std::size_t k = 0; k < keys.elements; ++k) {
      const std::array<std::string_view, 4> range{"LRANGE", reply_text(*keys.element[k]), "0",
                                                  "-1"};
      db.append(range);
    }
    const std::vector<RawReply> lists = db.read(keys.elements);
    std::size_t versions = 0;
    for (const RawReply& list : lists) {
      for (std::size_t v = 0; v < list->elements; ++v) {
        const std::string key = events_namespace + std::string(reply_text(*list->element[v]));
        const std::array<std::string_view, 3> get{"HGET", key, "version"};
        db.append(get);
        ++versions;
      }
    }
    const std::vector<RawReply> read = db.read(versions);
    std::size_t at = 0;
    for (const RawReply& list : lists) {
      ++stored.streams;
      stored.events += static_cast<std::int64_t>(list->elements);
      bool broken = false;
      for (std::size_t v = 0; v < list->elements; ++v) {
        const redisReply& version = *read[at++];
        broken = broken || version.type == REDIS_REPLY_NIL ||
                 reply_integer(version) != static_cast<long long>(v);
      }
      stored.broken_streams += broken ? 1 : 0;
    }
  });
  return stored;
}

}  // namespace docket::bench
