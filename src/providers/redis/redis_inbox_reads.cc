// The Redis inbox's reads and purges (redis_inbox_reads.h).
#include "providers/redis/redis_inbox_reads.h"

#include <string>
#include <utility>

#include "providers/kit/time_codec.h"
#include "providers/redis/redis_keyspace.h"

namespace docket::redis::detail {
namespace {

// ARGV: the index, the records' namespace, the cutoff (microseconds), the limit. The
// records below the cutoff, oldest first, each deleted with its index entry.
constexpr std::string_view kPurgeScript = R"lua(
local index, ns = ARGV[1], ARGV[2]
local ids = redis.call('ZRANGEBYSCORE', index, '-inf', '(' .. ARGV[3], 'LIMIT', 0, tonumber(ARGV[4]))
for _, id in ipairs(ids) do
  redis.call('DEL', ns .. id)
  redis.call('ZREM', index, id)
end
return #ids
)lua";

// Index members read per ZSCAN while purging a consumer.
constexpr std::string_view kScanCount = "500";

}  // namespace

InboxReads::InboxReads(Pool& pool)
    : pool_(pool),
      purge_script_("the inbox purge script", kPurgeScript),
      index_(pool.url().key(kDedupIndex)),
      namespace_(pool.url().key(kDedupNamespace)) {}

namespace {

// Whether the record `key` exists, from its TYPE: a hash is a record, nothing is none,
// and anything else is a key docket did not write, refused rather than read as a
// duplicate (which would drop the message).
bool is_record(const Reply& type, const std::string& key, const RedisUrl& url) {
  const std::string_view name = type.ok().text();
  if (name == "hash") {
    return true;
  }
  if (name == "none") {
    return false;
  }
  throw InfrastructureError("the Redis inbox's dedup record key '" + key + "' holds a " +
                            std::string(name) + ", which docket did not write (WRONGTYPE in " +
                            "docket's prefix '" + url.prefix +
                            "'): remove the key, or give docket a prefix of its own (?prefix=)");
}

}  // namespace

bool InboxReads::exists(const std::string& key) {
  return is_record(pool_.run({"TYPE", key}, Replay::kSafe), key, pool_.url());
}

std::vector<bool> InboxReads::recorded(std::string_view tenant, std::string_view consumer_id,
                                       std::span<const std::string> message_ids,
                                       const std::function<bool(const std::string&)>& staged) {
  std::vector<bool> out(message_ids.size(), false);
  std::vector<Command> reads;
  std::vector<std::size_t> positions;
  for (std::size_t i = 0; i < message_ids.size(); ++i) {
    const DedupKey key{std::string(tenant), std::string(consumer_id), message_ids[i]};
    std::string record = dedup_key(pool_.url(), dedup_id(key));
    if (staged(record)) {
      out[i] = true;
      continue;
    }
    reads.push_back({"TYPE", std::move(record)});
    positions.push_back(i);
  }
  if (!reads.empty()) {
    const std::vector<Reply> replies = pool_.pipeline(reads, Replay::kSafe);
    for (std::size_t r = 0; r < replies.size(); ++r) {
      out[positions[r]] = is_record(replies[r], reads[r][1], pool_.url());
    }
  }
  return out;
}

std::size_t InboxReads::purge_batch(Timestamp cutoff, std::size_t limit) {
  const Reply reply = purge_script_.run(
      pool_, {index_, namespace_, std::to_string(kit::to_micros(cutoff)), std::to_string(limit)},
      Replay::kUnsafe);
  return static_cast<std::size_t>(reply.integer());
}

std::size_t InboxReads::purge_consumer_batch(const std::string* tenant,
                                             std::string_view consumer_id, std::size_t limit) {
  std::vector<std::string> matches;
  std::string cursor = "0";
  do {
    const Reply page =
        pool_.run({"ZSCAN", index_, cursor, "COUNT", std::string(kScanCount)}, Replay::kSafe);
    page.ok();
    cursor = page.string_at(0).value_or("0");
    const std::vector<std::string> pairs = page.strings_at(1);  // member, score, ...
    std::vector<std::string> ids;
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
      ids.push_back(pairs[i]);
    }
    if (ids.empty()) {
      continue;
    }
    std::vector<Command> reads;
    for (const std::string& id : ids) {
      reads.push_back({"HMGET", dedup_key(pool_.url(), id), "tenant", "consumer_id"});
    }
    const std::vector<Reply> replies = pool_.pipeline(reads, Replay::kSafe);
    for (std::size_t i = 0; i < ids.size() && matches.size() < limit; ++i) {
      const auto record_tenant = replies[i].ok().string_at(0);
      const auto record_consumer = replies[i].string_at(1);
      if (record_consumer == consumer_id && (tenant == nullptr || record_tenant == *tenant)) {
        matches.push_back(ids[i]);
      }
    }
  } while (cursor != "0" && matches.size() < limit);
  if (matches.empty()) {
    return 0;
  }
  std::vector<Command> deletes;
  for (const std::string& id : matches) {
    deletes.push_back({"DEL", dedup_key(pool_.url(), id)});
    deletes.push_back({"ZREM", index_, id});
  }
  const std::vector<Reply> replies = pool_.pipeline(deletes, Replay::kSafeWrite);
  std::size_t deleted = 0;
  for (std::size_t i = 0; i < replies.size(); i += 2) {
    deleted += replies[i].ok().integer() == 1 ? 1 : 0;
  }
  return deleted;
}

}  // namespace docket::redis::detail
