// The Redis unit of work's commit script (redis_unit.h says what it checks, writes and
// answers; this file holds its source alone).
#include <string_view>

#include "providers/redis/redis_unit.h"

namespace docket::redis::detail {
namespace {

// ARGV: index key, dedup count, write count, outbox message count, the outbox's
// sequence, feed and due keys, event count and keys, saga count and keys, the outbox's
// staged channel (a commit that staged messages publishes their count to it), the
// events' appended channel (a commit that appended events publishes their count), then each
// dedup record (key, index member, processed_at,
// field count n, n field/value pairs), each write (op, key, argument count n, n
// arguments) and each outbox message (key, id, ordering-key set or "", next_attempt_at,
// field count n, n field/value pairs). Phase 1 checks, phase 2 writes; see redis_unit.h.
constexpr std::string_view kCommitScript = R"lua(
local index = ARGV[1]
local nd, nw, no, ne = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local seq_key, feed, due = ARGV[6], ARGV[7], ARGV[8]
local epos, efeed, ens = ARGV[9], ARGV[10], ARGV[11]
local ns, saga_keys, saga_done = tonumber(ARGV[12]), ARGV[13], ARGV[14]
local staged, appended = ARGV[15], ARGV[16]
local i = 17
local dedups, writes, outs, evs, sagas, seen, kinds = {}, {}, {}, {}, {}, {}, {}
local function fmt(n) return string.format('%d', n) end
local index_type = redis.call('TYPE', index)['ok']
if index_type ~= 'zset' and index_type ~= 'none' then return {5, 0, index_type} end
for d = 1, nd do
  local key, nf = ARGV[i], tonumber(ARGV[i + 3])
  local record_type = redis.call('TYPE', key)['ok']
  if seen[key] or record_type == 'hash' then return {1, d} end
  if record_type ~= 'none' then return {4, d, record_type} end
  seen[key] = true
  dedups[d] = i
  i = i + 4 + 2 * nf
end
local wants = {hset = 'hash', sadd = 'set', rpush = 'list'}
for w = 1, nw do
  local op, key, na = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local kind = kinds[key]
  if kind == nil then kind = redis.call('TYPE', key)['ok'] end
  if op == 'insert' then
    if kind ~= 'none' then return {2, w} end
    kind = 'string'
  elseif op == 'set' then kind = 'string'
  elseif op == 'del' then kind = 'none'
  else
    local want = wants[op]
    if kind ~= 'none' and kind ~= want then return {3, w, kind} end
    kind = want
  end
  kinds[key] = kind
  writes[w] = i
  i = i + 3 + na
end
if no > 0 then
  local function of_type(key, want)
    local t = redis.call('TYPE', key)['ok']
    if t ~= want and t ~= 'none' then return t end
    return nil
  end
  local bad = of_type(seq_key, 'string')
  if bad then return {7, 0, bad, seq_key} end
  for _, k in ipairs({feed, due}) do
    bad = of_type(k, 'zset')
    if bad then return {7, 0, bad, k} end
  end
  for o = 1, no do
    local key, okey, nf = ARGV[i], ARGV[i + 2], tonumber(ARGV[i + 4])
    if redis.call('EXISTS', key) == 1 then return {6, o} end
    if okey ~= '' then
      bad = of_type(okey, 'zset')
      if bad then return {7, o, bad, okey} end
    end
    outs[o] = i
    i = i + 5 + 2 * nf
  end
end
if ne > 0 then
  local function wrong(key, want)
    local t = redis.call('TYPE', key)['ok']
    if t ~= want and t ~= 'none' then return t end
    return nil
  end
  local bad = wrong(epos, 'string') or wrong(efeed, 'zset')
  if bad then return {7, 0, bad, epos .. ' or ' .. efeed} end
  local lens = {}
  for e = 1, ne do
    local stream, tfeed, version, nf = ARGV[i], ARGV[i + 1], ARGV[i + 2], tonumber(ARGV[i + 3])
    local len = lens[stream]
    if len == nil then
      bad = wrong(stream, 'list')
      if bad then return {7, 0, bad, stream} end
      len = redis.call('LLEN', stream)
    end
    bad = wrong(tfeed, 'zset')
    if bad then return {7, 0, bad, tfeed} end
    if version ~= '' and tonumber(version) ~= len then return {8, e, len - 1} end
    lens[stream] = len + 1
    evs[e] = i
    i = i + 4 + 2 * nf
  end
end
for g = 1, ns do
  local key, nf = ARGV[i], tonumber(ARGV[i + 4])
  for _, k in ipairs({saga_keys, saga_done}) do
    local t = redis.call('TYPE', k)['ok']
    if t ~= 'zset' and t ~= 'none' then return {7, 0, t, k} end
  end
  local t = redis.call('TYPE', key)['ok']
  if t ~= 'hash' and t ~= 'none' then return {7, 0, t, key} end
  local current = tonumber(redis.call('HGET', key, 'version') or '-1')
  if current ~= tonumber(ARGV[i + 2]) then return {9, g, current} end
  sagas[g] = i
  i = i + 5 + 2 * nf
end
for w = 1, nw do
  local at = writes[w]
  local op, key = ARGV[at], ARGV[at + 1]
  if op == 'set' or op == 'insert' then redis.call('SET', key, ARGV[at + 3])
  elseif op == 'del' then redis.call('DEL', key)
  elseif op == 'hset' then redis.call('HSET', key, ARGV[at + 3], ARGV[at + 4])
  elseif op == 'sadd' then redis.call('SADD', key, ARGV[at + 3])
  else redis.call('RPUSH', key, ARGV[at + 3]) end
end
for d = 1, nd do
  local at = dedups[d]
  local nf = tonumber(ARGV[at + 3])
  redis.call('HSET', ARGV[at], unpack(ARGV, at + 4, at + 3 + 2 * nf))
  redis.call('ZADD', index, ARGV[at + 2], ARGV[at + 1])
end
for o = 1, no do
  local at = outs[o]
  local key, id, okey, nf = ARGV[at], ARGV[at + 1], ARGV[at + 2], tonumber(ARGV[at + 4])
  local seq = fmt(redis.call('INCR', seq_key))
  redis.call('HSET', key, 'sequence', seq, unpack(ARGV, at + 5, at + 4 + 2 * nf))
  redis.call('ZADD', feed, seq, id)
  local free = true
  if okey ~= '' then
    redis.call('ZADD', okey, seq, id)
    free = redis.call('ZRANGE', okey, 0, 0)[1] == id
  end
  if free then redis.call('ZADD', due, ARGV[at + 3], id) end
end
if no > 0 then redis.call('PUBLISH', staged, no) end
for g = 1, ns do
  local at = sagas[g]
  local key, member, completed_at, nf = ARGV[at], ARGV[at + 1], ARGV[at + 3], tonumber(ARGV[at + 4])
  redis.call('DEL', key)
  redis.call('HSET', key, unpack(ARGV, at + 5, at + 4 + 2 * nf))
  redis.call('ZADD', saga_keys, 0, member)
  if completed_at ~= '' then redis.call('ZADD', saga_done, completed_at, member) end
end
local placed = {0}
for e = 1, ne do
  local at = evs[e]
  local stream, tfeed, nf = ARGV[at], ARGV[at + 1], tonumber(ARGV[at + 3])
  local pos = fmt(redis.call('INCR', epos))
  local version = fmt(redis.call('LLEN', stream))
  redis.call('HSET', ens .. pos, 'position', pos, 'version', version,
             unpack(ARGV, at + 4, at + 3 + 2 * nf))
  redis.call('RPUSH', stream, pos)
  redis.call('ZADD', efeed, pos, pos)
  redis.call('ZADD', tfeed, pos, pos)
  placed[#placed + 1] = tonumber(version)
  placed[#placed + 1] = tonumber(pos)
end
if ne > 0 then redis.call('PUBLISH', appended, ne) end
return placed
)lua";

}  // namespace

std::string_view commit_script_source() noexcept {
  return kCommitScript;
}

}  // namespace docket::redis::detail
