#include "redis_raw_outbox.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "docket/core/uuid.h"
#include "providers/redis/redis_keyspace.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// The relay's default lease (RelaySettings::lease).
constexpr std::int64_t kRedisOutboxLeaseMicros = 30'000'000;

// ARGV: sequence, feed, due, message namespace, source, tenant, event type, payload,
// now, n, then n ids. Writes nothing when any id was staged before.
constexpr std::string_view kRawOutboxStageScript = R"lua(
local seq_key, feed, due, ns = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local now, n = ARGV[9], tonumber(ARGV[10])
for m = 1, n do
  if redis.call('EXISTS', ns .. ARGV[10 + m]) == 1 then
    return redis.error_reply('outbox message ' .. ARGV[10 + m] .. ' was staged before')
  end
end
for m = 1, n do
  local id = ARGV[10 + m]
  local seq = string.format('%d', redis.call('INCR', seq_key))
  redis.call('HSET', ns .. id, 'sequence', seq, 'id', id, 'tenant', ARGV[6],
             'event_type', ARGV[7], 'payload', ARGV[8], 'occurred_at', now, 'created_at', now,
             'source', ARGV[5], 'traceparent', '', 'tracestate', '', 'destination', '',
             'headers', '', 'status', '0', 'attempts', '0', 'next_attempt_at', now,
             'lease_token', '', 'lease_until', '0', 'order_key', '')
  redis.call('ZADD', feed, seq, id)
  redis.call('ZADD', due, now, id)
end
return n
)lua";

// ARGV: due, message namespace, token, now, lease_until, limit. The leased messages'
// hashes.
constexpr std::string_view kRawOutboxClaimScript = R"lua(
local due, ns, token, lease_until = ARGV[1], ARGV[2], ARGV[3], ARGV[5]
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', due, '-inf', ARGV[4], 'LIMIT', 0, ARGV[6])) do
  redis.call('HSET', ns .. id, 'lease_token', token, 'lease_until', lease_until)
  redis.call('ZADD', due, lease_until, id)
  out[#out + 1] = redis.call('HGETALL', ns .. id)
end
return out
)lua";

// ARGV: due, message namespace, done, token, done_at, then the ids. How many it marked.
constexpr std::string_view kRawOutboxCompleteScript = R"lua(
local due, ns, done, token, at = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local marked = 0
for i = 6, #ARGV do
  local id = ARGV[i]
  local v = redis.call('HMGET', ns .. id, 'status', 'lease_token')
  if v[1] == '0' and v[2] == token then
    redis.call('HSET', ns .. id, 'status', '1', 'done_at', at, 'lease_token', '',
               'lease_until', '0')
    redis.call('ZREM', due, id)
    redis.call('ZADD', done, at, id)
    marked = marked + 1
  end
end
return marked
)lua";

// The value of `field` in an HGETALL reply, or "".
std::string_view raw_outbox_hash_field(const redisReply& hash, std::string_view field) {
  for (std::size_t f = 0; f + 1 < hash.elements; f += 2) {
    if (reply_text(*hash.element[f]) == field) {
      return reply_text(*hash.element[f + 1]);
    }
  }
  return {};
}

}  // namespace

RawOutboxRedis::RawOutboxRedis(const std::string& url, const std::string& source,
                               const MessageIds& ids, PublishLog& log, std::size_t batch)
    : source_(source), ids_(ids), log_(log), batch_(std::to_string(batch)), db_(url) {
  stage_sha_ = db_.load_script(kRawOutboxStageScript);
  claim_sha_ = db_.load_script(kRawOutboxClaimScript);
  complete_sha_ = db_.load_script(kRawOutboxCompleteScript);
  sequence_key_ = db_.url().key(redis::detail::kOutboxSequence);
  feed_key_ = db_.url().key(redis::detail::kOutboxFeed);
  due_key_ = db_.url().key(redis::detail::kOutboxDue);
  done_key_ = db_.url().key(redis::detail::kOutboxDone);
  messages_namespace_ = db_.url().key(redis::detail::kOutboxMessages);
}

void RawOutboxRedis::stage(std::size_t message) {
  fill(message, 1);
}

void RawOutboxRedis::fill(std::size_t first, std::size_t count) {
  const std::string now = std::to_string(now_micros());
  const std::string n = std::to_string(count);
  args_.assign({"EVALSHA", stage_sha_, "0", sequence_key_, feed_key_, due_key_, messages_namespace_,
                source_, kOutboxTenant, kOutboxEventType, kOutboxPayload, now, n});
  for (std::size_t m = first; m < first + count; ++m) {
    args_.push_back(ids_.id(m));
  }
  db_.run(args_);
}

RelayTally RawOutboxRedis::relay_pass() {
  const std::string token = Uuid::v4().to_string();
  const std::int64_t now_value = now_micros();
  const std::string now = std::to_string(now_value);
  const std::string lease_until = std::to_string(now_value + kRedisOutboxLeaseMicros);
  const RawReply rows = db_.run(
      {"EVALSHA", claim_sha_, "0", due_key_, messages_namespace_, token, now, lease_until, batch_});
  claimed_.clear();
  for (std::size_t r = 0; r < rows->elements; ++r) {
    const redisReply& row = *rows->element[r];
    const std::string_view sequence = raw_outbox_hash_field(row, "sequence");
    claimed_.emplace_back(std::strtoll(std::string(sequence).c_str(), nullptr, 10),
                          std::string(raw_outbox_hash_field(row, "id")));
  }
  std::sort(claimed_.begin(), claimed_.end());
  RelayTally tally{.passes = 1, .claimed = claimed_.size(), .published = 0, .not_done = 0};
  if (claimed_.empty()) {
    return tally;
  }
  const std::string done_at = std::to_string(now_micros());
  args_.assign(
      {"EVALSHA", complete_sha_, "0", due_key_, messages_namespace_, done_key_, token, done_at});
  for (const auto& [sequence, id] : claimed_) {
    log_.record(id);
    args_.push_back(id);
  }
  tally.published = static_cast<std::uint64_t>(reply_integer(*db_.run(args_)));
  tally.not_done = claimed_.size() - tally.published;
  return tally;
}

OutboxRunRows redis_outbox_run_rows(const std::string& url, std::string_view run_id) {
  RawRedis db(url, RawRedis::Counting::kUncounted);
  const std::string messages = db.url().key(redis::detail::kOutboxMessages);
  OutboxRunRows rows;
  db.scan(glob_escape(messages) + "*", [&](const redisReply& keys) {
    for (std::size_t k = 0; k < keys.elements; ++k) {
      const std::array<std::string_view, 5> get{"HMGET", reply_text(*keys.element[k]), "source",
                                                "id", "status"};
      db.append(get);
    }
    for (const RawReply& fields : db.read(keys.elements)) {
      if (fields->elements == 3 && reply_text(*fields->element[0]) == run_id) {
        rows.ids.emplace_back(reply_text(*fields->element[1]));
        rows.done += reply_text(*fields->element[2]) == "1" ? 1 : 0;
      }
    }
  });
  return rows;
}

std::int64_t redis_pending_outbox_rows(const std::string& url) {
  RawRedis db(url, RawRedis::Counting::kUncounted);
  const std::string due = db.url().key(redis::detail::kOutboxDue);
  const std::string ready = db.url().key(redis::detail::kOutboxReady);
  const std::array<std::string_view, 2> due_count{"ZCARD", due};
  const std::array<std::string_view, 2> ready_count{"ZCARD", ready};
  db.append(due_count);
  db.append(ready_count);
  const std::vector<RawReply> counts = db.read(2);
  return reply_integer(*counts[0]) + reply_integer(*counts[1]);
}

}  // namespace docket::bench
