// What a subscription of the Redis Streams transport does with what it holds
// (redis_streams_channel.h): acknowledging, returning, dead-lettering, and handing
// everything back to the group on close().
#include <hiredis/hiredis.h>

#include <algorithm>
#include <map>
#include <utility>

#include "docket/core/error.h"
#include "docket/transports/transport.h"
#include "transports/redis/redis_streams_channel.h"
#include "transports/redis/redis_streams_commands.h"

namespace docket::redis::streams {
namespace {

// Acknowledgements sent at once, at the latest: they ride along with the next round trip
// the channel makes (a fetch, a refresh, close()), so that a consumer pays no round
// trip of its own per message.
constexpr std::size_t kAckBatch = 64;
// Deletes the consumer only when its pending list is empty: XGROUP DELCONSUMER drops a
// consumer's pending entries unacknowledged, which would lose them for the group.
constexpr std::string_view kDeleteIdleConsumer = R"lua(
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], '-', '+', 1, ARGV[2])
if #pending == 0 then
  return redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], ARGV[2])
end
return -1
)lua";

}  // namespace

void StreamsChannel::acknowledge(std::uint64_t tag) {
  const auto found = held_.find(tag);
  if (found == held_.end())
    return;
  acks_.push_back(std::move(found->second.id));
  held_.erase(found);
  if (acks_.size() < kAckBatch)
    return;
  try {
    connection_->run(take_acks()).ok();
  } catch (const InfrastructureError&) {
    lost();  // unacknowledged: delivered again after the reconnect, and the inbox says so
  }
}

detail::Command StreamsChannel::take_acks() {
  detail::Command command{"XACK", route_.stream, route_.group};
  command.insert(command.end(), std::make_move_iterator(acks_.begin()),
                 std::make_move_iterator(acks_.end()));
  acks_.clear();
  return command;
}

void StreamsChannel::return_with_delay(std::uint64_t tag, std::chrono::milliseconds delay,
                                       std::string_view) {
  const auto found = held_.find(tag);
  if (found == held_.end())
    return;
  waiting_.push_back(
      {std::move(found->second), Clock::now() + std::max(delay, std::chrono::milliseconds(0))});
  held_.erase(found);
}

void StreamsChannel::dead_letter(std::uint64_t tag, std::string_view error) {
  const auto found = held_.find(tag);
  if (found == held_.end())
    return;
  TransportMessage message = found->second.delivery.message;
  message.headers.push_back({std::string(kDeadLetterErrorHeader), std::string(error)});
  message.headers.push_back({std::string(kDeadLetterDeliveriesHeader),
                             std::to_string(found->second.delivery.delivery_count)});
  try {
    move_to_dead_letters(found->second.id, encode_entry(message));
  } catch (const InfrastructureError& failure) {
    throw TransportError(
        what_of("dead-lettering message '" + message.envelope.message_id + "' of") + " to '" +
        route_.dead_letter_destination + "' failed (" + failure.what() +
        "); it stays held: settle it again");
  }
  held_.erase(found);
}

void StreamsChannel::move_to_dead_letters(const std::string& id, const Fields& fields) {
  if (!connection_)
    throw InfrastructureError("the connection to Redis at " + url_.server.server() + " was lost");
  const detail::Command commands[] = {{"MULTI"},
                                      xadd(route_.dead_letter_stream, fields, true),
                                      {"XACK", route_.stream, route_.group, id},
                                      {"EXEC"}};
  const std::vector<detail::Reply> replies = connection_->pipeline(commands);
  for (const detail::Reply& reply : replies)
    reply.ok();
  const detail::Reply& exec = replies.back();
  if (exec.is_nil() || exec.size() != 2)
    throw InfrastructureError("Redis at " + url_.server.server() + " did not run the move");
  const redisReply& added = exec.element(0);
  if (added.type == REDIS_REPLY_ERROR) {
    throw InfrastructureError("Redis at " + url_.server.server() + " refused the XADD to '" +
                              route_.dead_letter_stream +
                              "': " + std::string(added.str, added.len));
  }
}

void StreamsChannel::close() {
  if (closed_)
    return;
  closed_ = true;
  if (!connection_)
    return;
  // The delay each returned key still has to run: its later entries wait as long.
  const auto now = Clock::now();
  std::map<std::string, std::chrono::milliseconds> key_delay;
  std::vector<detail::Command> commands;
  if (!acks_.empty())
    commands.push_back(take_acks());
  const auto idle_for = [&](std::chrono::milliseconds delay) {
    return std::max(std::chrono::milliseconds(0), url_.claim_idle - delay);
  };
  for (const Waiting& waiting : waiting_) {
    const auto left = std::max(std::chrono::milliseconds(0),
                               std::chrono::ceil<std::chrono::milliseconds>(waiting.due - now));
    if (const auto& key = key_of(waiting.entry.delivery))
      key_delay[*key] = std::max(key_delay[*key], left);
    commands.push_back(park(route_.stream, route_.group, waiting.entry.id, idle_for(left),
                            waiting.entry.delivery.delivery_count));
  }
  const auto park_entry = [&](const Entry& entry) {
    std::chrono::milliseconds left{0};
    if (const auto& key = key_of(entry.delivery); key && key_delay.contains(*key))
      left = key_delay[*key];
    const std::uint32_t count =
        entry.handed_out ? entry.delivery.delivery_count : entry.delivery.delivery_count - 1;
    commands.push_back(park(route_.stream, route_.group, entry.id, idle_for(left), count));
  };
  for (const auto& [tag, entry] : held_)
    park_entry(entry);
  for (const Entry& entry : buffer_)
    park_entry(entry);
  commands.push_back(
      {"EVAL", std::string(kDeleteIdleConsumer), "1", route_.stream, route_.group, consumer_});
  try {
    connection_->pipeline(commands);
  } catch (const std::exception&) {
    // Lost: what it held stays in its pending list, and another consumer takes it over
    // after claim_idle_ms.
  }
  held_.clear();
  buffer_.clear();
  waiting_.clear();
  connection_.reset();
}

}  // namespace docket::redis::streams
