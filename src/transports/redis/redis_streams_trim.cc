// Trimming a stream below what every group has read and acknowledged
// (redis_streams_trim.h).
#include "transports/redis/redis_streams_trim.h"

#include <string>

#include "docket/core/error.h"

namespace docket::redis::streams {
namespace {

// Ids compare as two numbers (milliseconds, sequence); Lua's doubles hold both exactly
// for any time before the year 287,000.
constexpr std::string_view kTrimScript = R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local function parts(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local function before(a, b)
  local am, as = parts(a)
  local bm, bs = parts(b)
  return am < bm or (am == bm and as < bs)
end
local floor = nil
for _, group in ipairs(redis.call('XINFO', 'GROUPS', KEYS[1])) do
  local fields = {}
  for i = 1, #group, 2 do fields[group[i]] = group[i + 1] end
  for _, consumer in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], fields['name'])) do
    local c = {}
    for i = 1, #consumer, 2 do c[consumer[i]] = consumer[i + 1] end
    if c['pending'] == 0 and c['idle'] > tonumber(ARGV[1]) then
      redis.call('XGROUP', 'DELCONSUMER', KEYS[1], fields['name'], c['name'])
    end
  end
  local needed = fields['last-delivered-id']
  if fields['pending'] > 0 then
    needed = redis.call('XPENDING', KEYS[1], fields['name'])[2]
  end
  if floor == nil or before(needed, floor) then floor = needed end
end
if floor == nil or floor == '0-0' then return 0 end
return redis.call('XTRIM', KEYS[1], 'MINID', floor)
)lua";

}  // namespace

long long trim_read_entries(detail::Connection& connection, std::string_view stream,
                            std::chrono::milliseconds forget_after) {
  const detail::Reply reply =
      connection.run({"EVAL", std::string(kTrimScript), "1", std::string(stream),
                      std::to_string(forget_after.count())});
  if (reply.is_error()) {
    throw InfrastructureError("trimming the stream '" + std::string(stream) +
                              "' failed: " + std::string(reply.text()));
  }
  return reply.integer();
}

}  // namespace docket::redis::streams
