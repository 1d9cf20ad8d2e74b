#include "redis_raw_claim.h"

#include <array>
#include <chrono>

#include "claim_effect.h"
#include "claim_workload.h"
#include "docket/inbox/claim_key.h"
#include "providers/redis/redis_keyspace.h"

namespace docket::bench {
namespace {

// ARGV: key, id, key index, tenant, message id, handler type, owner, claim id, lease
// (microseconds). 1: claimed; 0: processed already or held by a live lease.
constexpr std::string_view kRawClaimEntryScript = R"lua(
local key = ARGV[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local v = redis.call('HMGET', key, 'status', 'lease_until')
local status = v[1]
if status == 'processed' then return 0 end
if status == 'processing' and tonumber(v[2]) > now then return 0 end
local nows = string.format('%d', now)
local lease = string.format('%d', now + tonumber(ARGV[9]))
if not status then
  redis.call('HSET', key, 'tenant', ARGV[4], 'message_id', ARGV[5], 'handler_type', ARGV[6],
             'retry_count', '0', 'received_at', nows, 'status', 'processing', 'owner', ARGV[7],
             'claim_id', ARGV[8], 'lease_until', lease, 'updated_at', nows)
  redis.call('ZADD', ARGV[3], 0, ARGV[2])
else
  redis.call('HSET', key, 'status', 'processing', 'owner', ARGV[7], 'claim_id', ARGV[8],
             'lease_until', lease, 'updated_at', nows)
end
return 1
)lua";

// ARGV: key, id, processed index, owner, claim id. 1: marked; 0: no longer this claim's.
constexpr std::string_view kRawClaimMarkScript = R"lua(
local key = ARGV[1]
local v = redis.call('HMGET', key, 'status', 'owner', 'claim_id')
if v[1] ~= 'processing' or v[2] ~= ARGV[4] or v[3] ~= ARGV[5] then return 0 end
local t = redis.call('TIME')
local now = string.format('%d', tonumber(t[1]) * 1000000 + tonumber(t[2]))
redis.call('HSET', key, 'status', 'processed', 'processed_at', now, 'updated_at', now)
redis.call('HDEL', key, 'owner', 'claim_id', 'lease_until')
redis.call('ZADD', ARGV[3], now, ARGV[2])
return 1
)lua";

constexpr std::size_t kRawClaimSlot = 3;

}  // namespace

RawClaimRedis::RawClaimRedis(const std::string& url, std::string_view handler_type,
                             std::string_view owner)
    : handler_type_(handler_type), owner_(owner), db_(url) {
  claim_sha_ = db_.load_script(kRawClaimEntryScript);
  mark_sha_ = db_.load_script(kRawClaimMarkScript);
  keys_index_ = db_.url().key(redis::detail::kClaimKeys);
  processed_index_ = db_.url().key(redis::detail::kClaimProcessed);
  lease_micros_ = std::to_string(
      std::chrono::duration_cast<std::chrono::microseconds>(kBenchClaimLease).count());
}

void RawClaimRedis::append_claim(std::size_t slot, std::string_view message_id) {
  if (slots_.size() < (slot + 1) * kRawClaimSlot) {
    slots_.resize((slot + 1) * kRawClaimSlot);
  }
  std::string* s = &slots_[slot * kRawClaimSlot];
  s[1] = redis::detail::claim_entry_id(ClaimKey::for_current_tenant(message_id, handler_type_));
  s[0] = redis::detail::claim_entry_key(db_.url(), s[1]);
  s[2] = owner_ + "/" + std::to_string(++claims_);
  const std::array<std::string_view, 12> args{
      "EVALSHA",         claim_sha_, "0",           s[0],   s[1], keys_index_,
      kBenchClaimTenant, message_id, handler_type_, owner_, s[2], lease_micros_};
  db_.append(args);
}

void RawClaimRedis::append_mark(std::size_t slot) {
  const std::string* s = &slots_[slot * kRawClaimSlot];
  const std::array<std::string_view, 8> args{"EVALSHA", mark_sha_,        "0",    s[0],
                                             s[1],      processed_index_, owner_, s[2]};
  db_.append(args);
}

void RawClaimRedis::cycle(std::string_view message_id, ClaimEffectWriter* effect,
                          ClaimCycleCounts& counts) {
  cycle_batch(std::span<const std::string_view>(&message_id, 1), effect, counts);
}

void RawClaimRedis::cycle_batch(std::span<const std::string_view> message_ids,
                                ClaimEffectWriter* effect, ClaimCycleCounts& counts) {
  for (std::size_t m = 0; m < message_ids.size(); ++m) {
    append_claim(m, message_ids[m]);
  }
  const std::vector<RawReply> claims = db_.read(message_ids.size());
  std::vector<std::size_t> claimed;
  for (std::size_t m = 0; m < message_ids.size(); ++m) {
    if (reply_integer(*claims[m]) == 1) {
      ++counts.claimed;
      claimed.push_back(m);
      run_effect(effect, message_ids[m], counts);
    } else {
      ++counts.skipped;
    }
  }
  if (claimed.empty()) {
    return;
  }
  for (const std::size_t m : claimed) {
    append_mark(m);
  }
  for (const RawReply& marked : db_.read(claimed.size())) {
    counts.processed += reply_integer(*marked) == 1 ? 1 : 0;
  }
}

}  // namespace docket::bench
