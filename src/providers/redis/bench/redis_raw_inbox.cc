#include "redis_raw_inbox.h"

#include <string>

#include "docket/inbox/inbox_store.h"
#include "inbox_workload.h"
#include "providers/redis/redis_keyspace.h"
#include "wall_clock.h"

namespace docket::bench {
namespace {

// ARGV: index, n, tenant, consumer, event type, body, processed_at, then per message its
// dedup key, index member, message id, occurred_at and effect key. Returns how many
// messages it recorded.
constexpr std::string_view kRawInboxScript = R"lua(
local index, n = ARGV[1], tonumber(ARGV[2])
local tenant, consumer, etype, body, now = ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local done = 0
for i = 8, 7 + 5 * n, 5 do
  local key = ARGV[i]
  if redis.call('EXISTS', key) == 0 then
    redis.call('HSET', key, 'tenant', tenant, 'consumer_id', consumer, 'message_id', ARGV[i + 2],
               'event_type', etype, 'occurred_at', ARGV[i + 3], 'processed_at', now)
    redis.call('ZADD', index, now, ARGV[i + 1])
    redis.call('SET', ARGV[i + 4], body)
    done = done + 1
  end
end
return done
)lua";

constexpr std::size_t kRawInboxKeysPerDelivery = 3;

}  // namespace

std::string redis_effect_key(std::string_view prefix, std::string_view consumer_id,
                             std::string_view message_id) {
  std::string key(prefix);
  key.append(kRedisEffectsNamespace).append(consumer_id).append(":").append(message_id);
  return key;
}

RawInboxRedis::RawInboxRedis(const std::string& url, std::string_view consumer_id, DedupCheck dedup)
    : consumer_id_(consumer_id), dedup_(dedup), db_(url) {
  sha_ = db_.load_script(kRawInboxScript);
  index_key_ = db_.url().key(redis::detail::kDedupIndex);
}

void RawInboxRedis::deliver(const BenchDelivery& delivery, DispatchCounts& counts) {
  deliver_batch(std::span<const BenchDelivery>(&delivery, 1), counts);
}

void RawInboxRedis::deliver_batch(std::span<const BenchDelivery> deliveries,
                                  DispatchCounts& counts) {
  keys_.clear();
  texts_.clear();
  for (const BenchDelivery& delivery : deliveries) {
    std::string id =
        redis::detail::dedup_id(DedupKey{.tenant = std::string(kBenchTenant),
                                         .consumer_id = consumer_id_,
                                         .message_id = std::string(delivery.message_id)});
    keys_.push_back(redis::detail::dedup_key(db_.url(), id));
    keys_.push_back(std::move(id));
    keys_.push_back(redis_effect_key(db_.url().prefix, consumer_id_, delivery.message_id));
    texts_.push_back(std::to_string(delivery.occurred_at_micros));
  }
  // Which deliveries go to the script: all at commit; those not recorded yet otherwise.
  std::vector<bool> recorded(deliveries.size(), false);
  std::size_t left = deliveries.size();
  if (dedup_ == DedupCheck::kBeforeHandlers) {
    for (std::size_t d = 0; d < deliveries.size(); ++d) {
      const std::array<std::string_view, 2> exists{"EXISTS", keys_[d * kRawInboxKeysPerDelivery]};
      db_.append(exists);
    }
    const std::vector<RawReply> replies = db_.read(deliveries.size());
    for (std::size_t d = 0; d < deliveries.size(); ++d) {
      recorded[d] = reply_integer(*replies[d]) != 0;
      left -= recorded[d] ? 1 : 0;
    }
  }
  if (left == 0) {
    counts.skipped_duplicates += deliveries.size();
    return;
  }
  const std::string count = std::to_string(left);
  const std::string now = std::to_string(now_micros());
  args_.assign({"EVALSHA", sha_, "0", index_key_, count, kBenchTenant, consumer_id_,
                kBenchEventType, kBenchPayload, now});
  for (std::size_t d = 0; d < deliveries.size(); ++d) {
    if (recorded[d]) {
      continue;
    }
    const std::size_t at = d * kRawInboxKeysPerDelivery;
    args_.insert(args_.end(),
                 {keys_[at], keys_[at + 1], deliveries[d].message_id, texts_[d], keys_[at + 2]});
  }
  const RawReply done = db_.run(args_);
  const auto processed = static_cast<std::uint64_t>(reply_integer(*done));
  counts.processed += processed;
  counts.skipped_duplicates += deliveries.size() - processed;
}

CommitProbeRedis::CommitProbeRedis(const std::string& url) : db_(url) {
  key_ = db_.url().key("docket_bench_commit_probe:");
}

void CommitProbeRedis::commit_one(std::string_view id) {
  const std::string key = key_ + std::string(id);
  db_.run({"SET", key, "1"});
}

}  // namespace docket::bench
