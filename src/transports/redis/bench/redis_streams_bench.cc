// The Redis Streams transport's bench part (bench/bench_transport.h): the raw publisher
// (redis_streams_raw_publisher.h) and the run's groups, each the Redis consumer group
// of its destination's stream: counted by its lag and pending entries, emptied by
// trimming the stream to nothing and creating the group again at its end, removed
// with the stream once no group is left.
#include <memory>
#include <string>

#include "bench_transport.h"
#include "docket/core/error.h"
#include "providers/redis/redis_connection.h"
#include "redis_streams_raw_publisher.h"
#include "transports/redis/redis_streams_url.h"

namespace docket::redis {
namespace {

// The group's waiting messages: those not yet delivered to it (its lag, or, where Redis
// cannot tell it, the entries after its last-delivered id) and those delivered and not
// acknowledged. An error when the group does not exist.
constexpr std::string_view kQueuedScript = R"lua(
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  local fields = {}
  for i = 1, #group, 2 do fields[group[i]] = group[i + 1] end
  if fields['name'] == ARGV[1] then
    local lag = fields['lag']
    if type(lag) ~= 'number' then
      lag = #redis.call('XRANGE', KEYS[1], '(' .. fields['last-delivered-id'], '+')
    end
    return lag + fields['pending']
  end
end
return redis.error_reply('NOGROUP no such consumer group')
)lua";

constexpr std::string_view kPurgeScript = R"lua(
redis.call('XTRIM', KEYS[1], 'MAXLEN', 0)
redis.call('XGROUP', 'DESTROY', KEYS[1], ARGV[1])
return redis.call('XGROUP', 'CREATE', KEYS[1], ARGV[1], '$', 'MKSTREAM')
)lua";

constexpr std::string_view kRemoveScript = R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('XGROUP', 'DESTROY', KEYS[1], ARGV[1])
if #redis.call('XINFO', 'GROUPS', KEYS[1]) == 0 then redis.call('DEL', KEYS[1]) end
return 1
)lua";

class StreamsBench final : public bench::TransportBench {
 public:
  std::string_view example_url() const noexcept override {
    return "redis://:password@127.0.0.1:6379/0?stream_prefix=docket-bench:";
  }

  std::unique_ptr<bench::RawPublishSession> raw_session(
      std::string_view url, std::span<const TransportMessage> messages) const override {
    return std::make_unique<streams::RawStreamsPublisher>(url, messages);
  }

  std::uint64_t queued(std::string_view url, std::string_view destination,
                       std::string_view group) const override {
    return static_cast<std::uint64_t>(run(url, kQueuedScript, destination, group).integer());
  }

  void purge(std::string_view url, std::string_view destination,
             std::string_view group) const override {
    run(url, kPurgeScript, destination, group);
  }

  void remove(std::string_view url, std::string_view destination,
              std::string_view group) const override {
    run(url, kRemoveScript, destination, group);
  }

 private:
  static detail::Reply run(std::string_view url, std::string_view script,
                           std::string_view destination, std::string_view group) {
    const streams::StreamsUrl parsed = streams::parse_streams_url(url);
    detail::Connection connection(parsed.server);
    const std::string stream = parsed.stream_prefix + std::string(destination);
    detail::Reply reply = connection.run({"EVAL", std::string(script), "1", stream,
                                          group.empty() ? parsed.group : std::string(group)});
    if (reply.is_error()) {
      throw InfrastructureError("Redis at " + parsed.server.server() + ": the group '" +
                                std::string(group) + "' of stream '" + stream +
                                "': " + std::string(reply.text()));
    }
    return reply;
  }
};

}  // namespace

const bench::TransportBench& bench_transport() {
  static const StreamsBench bench;
  return bench;
}

}  // namespace docket::redis
