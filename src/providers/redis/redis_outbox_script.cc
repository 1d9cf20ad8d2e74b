// The Redis outbox's relay-side script (redis_outbox_script.h).
#include "providers/redis/redis_outbox_script.h"

namespace docket::redis::detail {
namespace {

constexpr std::string_view kOutboxScript = R"lua(
local op, mp = ARGV[1], ARGV[2]
local due, ready, feed, parked, done = ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]
for _, k in ipairs({due, ready, feed, parked, done}) do
  local t = redis.call('TYPE', k)['ok']
  if t ~= 'zset' and t ~= 'none' then
    return redis.error_reply('WRONGTYPE the outbox index ' .. k .. ' holds a ' .. t ..
      ', which docket did not write: remove it, or give docket a prefix of its own (?prefix=)')
  end
end
local function get(id, ...) return redis.call('HMGET', mp .. id, ...) end
local function unqueue(id)
  redis.call('ZREM', due, id)
  redis.call('ZREM', ready, id)
end
-- Whether the message is the first of its ordering key's set (or has no key).
local function first_of_key(id)
  local okey = redis.call('HGET', mp .. id, 'order_key')
  if not okey or okey == '' then return true end
  return redis.call('ZRANGE', okey, 0, 0)[1] == id
end
-- The message lets go of its ordering key; the next of the key becomes due. `known`:
-- the message's order_key field when the caller has read it already.
local function release_key(id, known)
  local okey = known
  if okey == nil then okey = redis.call('HGET', mp .. id, 'order_key') end
  if not okey or okey == '' then return end
  local first = redis.call('ZRANGE', okey, 0, 0)[1]
  redis.call('ZREM', okey, id)
  if first ~= id then return end
  local next_id = redis.call('ZRANGE', okey, 0, 0)[1]
  if not next_id then return end
  local v = get(next_id, 'status', 'next_attempt_at')
  if v[1] == '0' then redis.call('ZADD', due, v[2], next_id) end
end
-- One command over many members (ZREM's ids, ZADD's score/id pairs), in chunks of 1000
-- arguments (even, so pairs stay whole) that unpack keeps within Lua's stack; nothing
-- for none.
local function each_chunk(command, key, args)
  for i = 1, #args, 1000 do
    redis.call(command, key, unpack(args, i, math.min(i + 999, #args)))
  end
end
local function rows(ids)
  local out = {}
  for _, id in ipairs(ids) do
    local row = redis.call('HGETALL', mp .. id)
    if #row > 0 then out[#out + 1] = row end
  end
  return out
end

if op == 'claim' then
  local token, now, lease_until, limit = ARGV[8], tonumber(ARGV[9]), ARGV[10], tonumber(ARGV[11])
  local moved, scored = redis.call('ZRANGEBYSCORE', due, '-inf', ARGV[9], 'LIMIT', 0, ARGV[12]), {}
  for _, id in ipairs(moved) do
    local seq = redis.call('HGET', mp .. id, 'sequence')
    if seq then
      scored[#scored + 1] = seq
      scored[#scored + 1] = id
    end
  end
  each_chunk('ZREM', due, moved)
  each_chunk('ZADD', ready, scored)
  local chosen, stale, offset = {}, {}, 0
  while #chosen < limit do
    local page = redis.call('ZRANGE', ready, offset, offset + 99)
    if #page == 0 then break end
    for _, id in ipairs(page) do
      if #chosen == limit then break end
      local v = get(id, 'status', 'next_attempt_at', 'lease_token', 'lease_until')
      if v[1] ~= '0' then
        stale[#stale + 1] = id
      elseif tonumber(v[2]) <= now and (v[3] == '' or tonumber(v[4]) <= now) then
        chosen[#chosen + 1] = id
      end
    end
    offset = offset + 100
  end
  each_chunk('ZREM', ready, stale)
  local leased = {}
  for _, id in ipairs(chosen) do
    redis.call('HSET', mp .. id, 'lease_token', token, 'lease_until', lease_until)
    leased[#leased + 1] = lease_until
    leased[#leased + 1] = id
  end
  each_chunk('ZREM', ready, chosen)
  each_chunk('ZADD', due, leased)
  return rows(chosen)
end

if op == 'range' then
  local set = feed
  if ARGV[8] == 'parked' then set = parked end
  return rows(redis.call('ZRANGEBYSCORE', set, '(' .. ARGV[9], '+inf', 'LIMIT', 0, ARGV[10]))
end

if op == 'purge_done' then
  local ids = redis.call('ZRANGEBYSCORE', done, '-inf', '(' .. ARGV[8], 'LIMIT', 0, ARGV[9])
  for _, id in ipairs(ids) do
    redis.call('ZREM', done, id)
    redis.call('ZREM', feed, id)
    redis.call('DEL', mp .. id)
  end
  return #ids
end

if op == 'purge_parked' then
  local cutoff, limit = tonumber(ARGV[8]), tonumber(ARGV[9])
  local victims, offset = {}, 0
  while #victims < limit do
    local page = redis.call('ZRANGE', parked, offset, offset + 99)
    if #page == 0 then break end
    for _, id in ipairs(page) do
      local at = redis.call('HGET', mp .. id, 'next_attempt_at')
      if #victims < limit and at and tonumber(at) < cutoff then victims[#victims + 1] = id end
    end
    offset = offset + 100
  end
  for _, id in ipairs(victims) do
    release_key(id)
    redis.call('ZREM', parked, id)
    redis.call('ZREM', feed, id)
    redis.call('DEL', mp .. id)
  end
  return #victims
end

-- Each id as 'complete' takes it, on its own terms: one run for a relay's whole batch.
if op == 'complete_all' then
  local token, at, completed = ARGV[8], ARGV[9], 0
  if token == '' then return 0 end
  for i = 10, #ARGV do
    local id = ARGV[i]
    local v = get(id, 'status', 'lease_token', 'order_key')
    if v[1] == '0' and v[2] == token then
      redis.call('HSET', mp .. id, 'status', '1', 'done_at', at, 'lease_token', '',
                 'lease_until', '0')
      unqueue(id)
      redis.call('ZADD', done, at, id)
      release_key(id, v[3])
      completed = completed + 1
    end
  end
  return completed
end

local id = ARGV[8]
local key = mp .. id
local v = get(id, 'status', 'lease_token', 'sequence')
local status, token = v[1], v[2]
local function end_lease() redis.call('HSET', key, 'lease_token', '', 'lease_until', '0') end

if op == 'complete' then
  if status ~= '0' or token == '' or token ~= ARGV[9] then return 0 end
  redis.call('HSET', key, 'status', '1', 'done_at', ARGV[10])
  end_lease()
  unqueue(id)
  redis.call('ZADD', done, ARGV[10], id)
  release_key(id)
  return 1
end
if op == 'fail' then
  if status ~= '0' or token == '' or token ~= ARGV[9] then return 0 end
  redis.call('HINCRBY', key, 'attempts', 1)
  redis.call('HSET', key, 'last_error', ARGV[12])
  end_lease()
  unqueue(id)
  if ARGV[10] == '1' then
    redis.call('HSET', key, 'status', '2')
    redis.call('ZADD', parked, v[3], id)
  else
    redis.call('HSET', key, 'next_attempt_at', ARGV[11])
    redis.call('ZADD', due, ARGV[11], id)
  end
  return 1
end
if op == 'replay' then
  if status ~= '2' then return 0 end
  redis.call('HSET', key, 'status', '0', 'attempts', '0', 'next_attempt_at', ARGV[9])
  end_lease()
  redis.call('ZREM', parked, id)
  if first_of_key(id) then redis.call('ZADD', due, ARGV[9], id) end
  return 1
end
if op == 'skip' then
  if status ~= '2' then return 0 end
  redis.call('HSET', key, 'status', '3', 'done_at', ARGV[9])
  end_lease()
  redis.call('ZREM', parked, id)
  release_key(id)
  return 1
end
if op == 'cancel' then
  if status ~= '0' or token ~= '' then return 0 end
  redis.call('HSET', key, 'status', '4', 'done_at', ARGV[9])
  unqueue(id)
  release_key(id)
  return 1
end
return redis.error_reply('the outbox script has no operation ' .. op)
)lua";

}  // namespace

std::string_view outbox_script_source() noexcept {
  return kOutboxScript;
}

}  // namespace docket::redis::detail
