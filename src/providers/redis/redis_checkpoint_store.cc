// The Redis CheckpointStore (redis_checkpoint_store.h).
#include "providers/redis/redis_checkpoint_store.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "providers/kit/time_codec.h"
#include "providers/redis/redis_keyspace.h"

namespace docket::redis::detail {
namespace {

// Sorted set members read per ZRANGEBYLEX while a listing filters by consumer.
constexpr std::size_t kListChunk = 500;

class RedisCheckpointStore final : public CheckpointStore {
 public:
  RedisCheckpointStore(std::string_view url, const Clock& clock)
      : pool_(parse_url(url)),
        positions_(pool_.url().key(kCheckpointPositions)),
        times_(pool_.url().key(kCheckpointTimes)),
        index_(pool_.url().key(kCheckpointIndex)),
        clock_(clock) {}

 protected:
  std::optional<std::string> do_get(const std::string& tenant,
                                    std::string_view consumer_id) override {
    return pool_.run({"HGET", positions_, checkpoint_field(tenant, consumer_id)}, Replay::kSafe)
        .ok()
        .string();
  }

  void do_set(const std::string& tenant, std::string_view consumer_id,
              std::string_view position) override {
    const std::string field = checkpoint_field(tenant, consumer_id);
    const Command commands[] = {
        {"MULTI"},
        {"HSET", positions_, field, std::string(position)},
        {"HSET", times_, field, std::to_string(kit::to_micros(clock_.now()))},
        {"ZADD", index_, "0", field},
        {"EXEC"}};
    const std::vector<Reply> replies = pool_.pipeline(commands, Replay::kSafeWrite);
    for (const Reply& reply : replies) {
      reply.ok();
    }
    if (replies.back().is_nil()) {
      throw InfrastructureError("Redis at " + pool_.url().server() +
                                " discarded the checkpoint's transaction (EXEC returned nil)");
    }
  }

  std::vector<CheckpointEntry> do_list(const CheckpointListRequest& request) override {
    // The range: one tenant's fields when it is named (escaped terms hold no ':', and
    // ';' follows ':'), every field otherwise; behind `after` when given.
    std::string low = "-";
    std::string high = "+";
    if (request.tenant) {
      const std::string tenant = checkpoint_tenant_prefix(request.tenant->value());
      low = "[" + tenant;
      high = "(" + tenant.substr(0, tenant.size() - 1) + ";";
    }
    if (request.after) {
      low = "(" + checkpoint_field(request.after->tenant.value(), request.after->consumer_id);
    }
    std::vector<std::string> fields;
    std::vector<CheckpointTermsView> terms;
    const std::size_t chunk = request.consumer_id ? kListChunk : request.limit + 1;
    while (fields.size() <= request.limit) {
      const Reply page = pool_.run(
          {"ZRANGEBYLEX", index_, low, high, "LIMIT", "0", std::to_string(chunk)}, Replay::kSafe);
      page.ok();
      const std::size_t n = page.size();
      for (std::size_t i = 0; i < n && fields.size() <= request.limit; ++i) {
        std::string field = *page.string_at(i);
        auto parsed = parse_checkpoint_field(field);
        if (!parsed) {
          throw InfrastructureError("the Redis checkpoint index " + index_ + " holds '" + field +
                                    "', which docket did not write: remove it");
        }
        if (request.consumer_id && parsed->consumer_id != *request.consumer_id) {
          continue;
        }
        fields.push_back(std::move(field));
        terms.push_back(std::move(*parsed));
      }
      if (n < chunk) {
        break;
      }
      low = "(" + *page.string_at(n - 1);
    }
    std::vector<CheckpointEntry> entries;
    if (fields.empty()) {
      return entries;
    }
    Command positions = {"HMGET", positions_};
    Command times = {"HMGET", times_};
    positions.insert(positions.end(), fields.begin(), fields.end());
    times.insert(times.end(), fields.begin(), fields.end());
    const Command reads[] = {std::move(positions), std::move(times)};
    const std::vector<Reply> replies = pool_.pipeline(reads, Replay::kSafe);
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const auto position = replies[0].ok().string_at(i);
      const auto time = replies[1].ok().string_at(i);
      if (!position || !time) {
        continue;  // indexed but never completely written: not a checkpoint
      }
      entries.push_back(CheckpointEntry{.tenant = TenantId::from_stored(terms[i].tenant),
                                        .consumer_id = std::move(terms[i].consumer_id),
                                        .position = *position,
                                        .updated_at = kit::from_micros(std::stoll(*time))});
    }
    return entries;
  }

 public:
  Pool& pool() noexcept { return pool_; }

 private:
  Pool pool_;
  std::string positions_;
  std::string times_;
  std::string index_;
  const Clock& clock_;
};

}  // namespace

std::unique_ptr<CheckpointStore> open_checkpoint_store(std::string_view url, const Clock& clock) {
  return std::make_unique<RedisCheckpointStore>(url, clock);
}

long long count_checkpoints(Pool& pool) {
  return pool.run({"ZCARD", pool.url().key(kCheckpointIndex)}, Replay::kSafe).ok().integer();
}

}  // namespace docket::redis::detail
