// The Redis SnapshotStore (redis_snapshot_store.h).
#include "providers/redis/redis_snapshot_store.h"

#include <string>
#include <vector>

#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_hash_fields.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/redis_limits.h"
#include "providers/redis/redis_pool.h"
#include "providers/redis/redis_script.h"

namespace docket::redis::detail {
namespace {

// ARGV: the snapshot's key, version, payload, taken_at. 0: a higher version is kept;
// 1: saved.
constexpr std::string_view kSnapshotSaveScript = R"lua(
local key = ARGV[1]
local t = redis.call('TYPE', key)['ok']
if t ~= 'hash' and t ~= 'none' then
  return redis.error_reply('WRONGTYPE the snapshot key ' .. key .. ' holds a ' .. t ..
    ', which docket did not write: remove it, or give docket a prefix of its own (?prefix=)')
end
local stored = redis.call('HGET', key, 'version')
if stored and tonumber(stored) > tonumber(ARGV[2]) then return 0 end
redis.call('HSET', key, 'version', ARGV[2], 'payload', ARGV[3], 'taken_at', ARGV[4])
return 1
)lua";

class RedisSnapshotStore final : public SnapshotStore {
 public:
  RedisSnapshotStore(std::string_view url, const Clock& clock)
      : SnapshotStore(clock),
        pool_(parse_url(url)),
        save_script_("the snapshot save script", kSnapshotSaveScript),
        name_(pool_.url().describe_store("snapshot store")) {}

  std::string_view provider_name() const noexcept override { return "redis"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::snapshot_store_capabilities({.joins_handler_writes = false,
                                             .interactive_transactions = false,
                                             .max_writes_per_commit = 0,
                                             .max_bytes_per_commit = 0,
                                             .max_bytes_per_record = kMaxBulkBytes,
                                             .feed = FeedKind::kNone,
                                             .server_side_expiry = false,
                                             .shared_between_processes = true,
                                             .concurrent_writers = false});
  }

 private:
  SnapshotSaveOutcome do_save(const StreamId& stream, const Snapshot& snapshot) override {
    const std::vector<std::string> record{
        "version",  std::to_string(snapshot.version),
        "payload",  snapshot.payload,
        "taken_at", std::to_string(kit::to_micros(snapshot.taken_at))};
    check_record(name_, "the snapshot of " + stream.describe(), record,
                 "Make the snapshot's state smaller.");
    const Reply reply = save_script_.run(
        pool_, {snapshot_key(pool_.url(), stream), record[1], record[3], record[5]},
        Replay::kSafeWrite);
    return reply.integer() == 1 ? SnapshotSaveOutcome::kSaved : SnapshotSaveOutcome::kKeptNewer;
  }

  std::optional<Snapshot> do_load(const StreamId& stream) override {
    const std::string key = snapshot_key(pool_.url(), stream);
    const Reply reply = pool_.run({"HGETALL", key}, Replay::kSafe);
    if (reply.is_error()) {
      throw InfrastructureError(name_ + ": the snapshot key '" + key + "' is refused by Redis (" +
                                std::string(reply.text()) +
                                "): a key of another type where docket keeps the snapshot; "
                                "remove it, or give docket a prefix of its own (?prefix=)");
    }
    const std::vector<std::string> pairs = reply.strings();
    if (pairs.empty()) {
      return std::nullopt;
    }
    const HashFields fields(pairs, name_, "the snapshot of", "version");
    return Snapshot{.version = fields.integer("version"),
                    .payload = fields.text("payload"),
                    .taken_at = fields.time("taken_at")};
  }

  Pool pool_;
  Script save_script_;
  std::string name_;
};

}  // namespace

std::unique_ptr<SnapshotStore> open_snapshot_store(std::string_view url, const Clock& clock) {
  return std::make_unique<RedisSnapshotStore>(url, clock);
}

}  // namespace docket::redis::detail
