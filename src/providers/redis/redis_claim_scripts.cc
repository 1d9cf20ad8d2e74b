// The Redis claim inbox's scripts (redis_claim_scripts.h).
#include "providers/redis/redis_claim_scripts.h"

namespace docket::redis::detail {
namespace {

constexpr std::string_view kEntryScript = R"lua(
local op, key, id = ARGV[1], ARGV[2], ARGV[3]
local keys_index, processed_index, failed_index = ARGV[4], ARGV[5], ARGV[6]
local now
if ARGV[7] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
else
  now = tonumber(ARGV[7])
end
local function fmt(n) return string.format('%d', n) end
-- Keys of another type in docket's prefix are refused before anything is written.
for _, index in ipairs({keys_index, processed_index, failed_index}) do
  local t = redis.call('TYPE', index)['ok']
  if t ~= 'zset' and t ~= 'none' then
    return redis.error_reply('WRONGTYPE the claim inbox index ' .. index .. ' holds a ' .. t ..
      ', which docket did not write: remove it, or give docket a prefix of its own (?prefix=)')
  end
end
local entry_type = redis.call('TYPE', key)['ok']
if entry_type ~= 'hash' and entry_type ~= 'none' then
  return redis.error_reply('WRONGTYPE the claim inbox entry ' .. key .. ' holds a ' .. entry_type ..
    ', which docket did not write: remove it, or give docket a prefix of its own (?prefix=)')
end
local status = redis.call('HGET', key, 'status')
local function held()
  if status ~= 'processing' then return false end
  local v = redis.call('HMGET', key, 'owner', 'claim_id')
  return v[1] == ARGV[8] and v[2] == ARGV[9]
end
local function end_claim(new_status)
  redis.call('HSET', key, 'status', new_status, 'updated_at', fmt(now))
  redis.call('HDEL', key, 'owner', 'claim_id', 'lease_until')
  if new_status ~= 'failed' then redis.call('ZREM', failed_index, id) end
end
local function create()
  redis.call('HSET', key, 'tenant', ARGV[8], 'message_id', ARGV[9], 'handler_type', ARGV[10],
             'status', 'received', 'retry_count', '0', 'received_at', fmt(now),
             'updated_at', fmt(now))
  redis.call('ZADD', keys_index, 0, id)
  status = 'received'
end
local function processed()
  end_claim('processed')
  redis.call('HSET', key, 'processed_at', fmt(now))
  redis.call('HDEL', key, 'next_attempt_at')
  redis.call('ZADD', processed_index, now, id)
end
if op == 'claim' then
  if not status then create() end
  local v = redis.call('HMGET', key, 'retry_count', 'lease_until')
  if status == 'processed' then return {1, v[1], false} end
  if status == 'processing' and (not v[2] or tonumber(v[2]) > now) then return {2, v[1], v[2]} end
  local lease_until = fmt(now + tonumber(ARGV[13]))
  redis.call('HSET', key, 'status', 'processing', 'owner', ARGV[11], 'claim_id', ARGV[12],
             'lease_until', lease_until, 'updated_at', fmt(now))
  redis.call('ZREM', failed_index, id)
  return {0, v[1], lease_until}
elseif op == 'processed' then
  if not held() then return 0 end
  processed()
  return 1
elseif op == 'release' then
  if not held() then return 0 end
  end_claim('received')
  return 1
elseif op == 'failed' then
  if not held() then return 0 end
  end_claim('failed')
  redis.call('HINCRBY', key, 'retry_count', 1)
  redis.call('HSET', key, 'last_error', ARGV[10], 'next_attempt_at', ARGV[11])
  redis.call('ZADD', failed_index, tonumber(ARGV[11]), id)
  return 1
elseif op == 'renew' then
  if not held() then return false end
  local lease_until = fmt(now + tonumber(ARGV[10]))
  redis.call('HSET', key, 'lease_until', lease_until, 'updated_at', fmt(now))
  return lease_until
elseif op == 'first' then
  if status == 'processed' then return 0 end
  if not status then create() end
  processed()
  return 1
elseif op == 'retry' then
  if status ~= 'failed' then return 0 end
  redis.call('HSET', key, 'next_attempt_at', fmt(now), 'updated_at', fmt(now))
  redis.call('ZADD', failed_index, now, id)
  return 1
end
return redis.error_reply('unknown claim operation ' .. tostring(op))
)lua";

// Reads the processed index in pages of 500 from the oldest, skipping (and counting in
// the offset) entries of other tenants, until `limit` are deleted or none is left.
constexpr std::string_view kCleanupScript = R"lua(
local processed_index, keys_index, failed_index, prefix = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local cutoff, limit, tenant = ARGV[5], tonumber(ARGV[6]), ARGV[7]
local deleted, offset = 0, 0
while deleted < limit do
  local ids = redis.call('ZRANGEBYSCORE', processed_index, '-inf', '(' .. cutoff,
                         'LIMIT', offset, 500)
  if #ids == 0 then break end
  for _, id in ipairs(ids) do
    local key = prefix .. id
    local v = redis.call('HMGET', key, 'status', 'tenant')
    if v[1] ~= 'processed' or tenant == '' or v[2] == tenant then
      if v[1] == 'processed' then
        redis.call('DEL', key)
        redis.call('ZREM', keys_index, id)
        redis.call('ZREM', failed_index, id)
        deleted = deleted + 1
      end
      redis.call('ZREM', processed_index, id)
      if deleted >= limit then break end
    else
      offset = offset + 1
    end
  end
end
return deleted
)lua";

}  // namespace

std::string_view claim_entry_script() noexcept {
  return kEntryScript;
}
std::string_view claim_cleanup_script() noexcept {
  return kCleanupScript;
}

}  // namespace docket::redis::detail
