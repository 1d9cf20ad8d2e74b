// The Redis SagaStore (redis_saga_store.h).
#include "providers/redis/redis_saga_store.h"

#include <string>
#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "docket/redis/transaction.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"
#include "providers/redis/redis_joined_unit.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/redis_limits.h"
#include "providers/redis/redis_saga_fields.h"
#include "providers/redis/redis_unit.h"

namespace docket::redis::detail {
namespace {

// Key index members read per script run while a listing filters.
constexpr std::size_t kSagaListChunk = 200;

// ARGV: 'list', the sagas' namespace (P saga:), the key index, min, max, count -> each
// member's HGETALL in byte order, with the member appended as a field 'member' (alone
// where the hash is gone); or 'purge',
// the namespace, the key index, the completed index, cutoff, batch, tenant ('' for
// every tenant) -> how many were deleted.
constexpr std::string_view kSagaScript = R"lua(
local op, ns, keys = ARGV[1], ARGV[2], ARGV[3]
if op == 'list' then
  local out = {}
  for _, member in ipairs(redis.call('ZRANGEBYLEX', keys, ARGV[4], ARGV[5], 'LIMIT', 0, ARGV[6])) do
    local entry = redis.call('HGETALL', ns .. member)
    entry[#entry + 1] = 'member'
    entry[#entry + 1] = member
    out[#out + 1] = entry
  end
  return out
end
local done, cutoff, batch, tenant = ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local victims, offset = {}, 0
while #victims < batch do
  local page = redis.call('ZRANGEBYSCORE', done, '-inf', '(' .. cutoff, 'LIMIT', offset, 200)
  if #page == 0 then break end
  for _, member in ipairs(page) do
    if #victims < batch and (tenant == '' or redis.call('HGET', ns .. member, 'tenant') == tenant) then
      victims[#victims + 1] = member
    end
  end
  offset = offset + 200
end
for _, member in ipairs(victims) do
  redis.call('DEL', ns .. member)
  redis.call('ZREM', keys, member)
  redis.call('ZREM', done, member)
end
return #victims
)lua";

class RedisSagaStore final : public SagaStore {
 public:
  RedisSagaStore(std::string_view url, const Clock& clock)
      : SagaStore(clock),
        pool_(parse_url(url)),
        commit_script_("the commit script", commit_script_source()),
        script_("the saga script", kSagaScript),
        context_{pool_, commit_script_, pool_.url().key(kDedupIndex), clock},
        name_(pool_.url().describe_store("saga store")) {}

  std::string_view provider_name() const noexcept override { return "redis"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::saga_store_capabilities({.joins_handler_writes = true,
                                         .interactive_transactions = false,
                                         .max_writes_per_commit = 0,
                                         .max_bytes_per_commit = 0,
                                         .max_bytes_per_record = kMaxBulkBytes,
                                         .feed = FeedKind::kNone,
                                         .server_side_expiry = false,
                                         .shared_between_processes = true,
                                         .concurrent_writers = false});
  }
  std::optional<TransactionType> transaction_type() const noexcept override {
    return TransactionType::of<redis::Transaction>();
  }

 private:
  SagaSaveResult do_save(const SaveRequest& request) override {
    Unit unit(context_);
    SagaSaveResult result = save_in(unit, request);
    if (result.is_conflict()) {
      return result;
    }
    try {
      unit.commit();
    } catch (const SagaConflictError& e) {
      return VersionConflict{.subject = "save of " + request.saga.describe(),
                             .expected_version = request.expected_version,
                             .actual_version = e.actual_version()};
    }
    return result;
  }

  std::optional<SagaRecord> do_load(const SagaId& saga) override {
    return read(saga_key(pool_.url(), saga_member(saga)));
  }

  SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request) override {
    return save_in(joined(transaction), request);
  }

  std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction,
                                       const SagaId& saga) override {
    Unit& unit = joined(transaction);
    return unit.sagas().view(unit.staged_sagas(), saga, [&] { return first_read(saga); });
  }

  SagaPage do_list(const SagaListRequest& request) override {
    std::string low = "-";
    std::string high = "+";
    if (request.tenant) {
      const std::string prefix = saga_tenant_prefix(request.tenant->value());
      low = "[" + prefix;
      high = "(" + prefix.substr(0, prefix.size() - 1) + ";";  // ';' follows ':'
    }
    if (request.after) {
      low = "(" + saga_member(request.after->saga);
    }
    std::vector<SagaSummary> matches;
    while (matches.size() <= request.limit) {
      const Reply reply = script_.run(pool_,
                                      {"list", pool_.url().key(kSagas), pool_.url().key(kSagaKeys),
                                       low, high, std::to_string(kSagaListChunk)},
                                      Replay::kSafe);
      if (!take_page(reply, request, matches, low) || reply.size() < kSagaListChunk) {
        break;
      }
    }
    return kit::saga_list_page(std::move(matches), request.limit);
  }

  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override {
    return static_cast<std::size_t>(
        script_
            .run(pool_,
                 {"purge", pool_.url().key(kSagas), pool_.url().key(kSagaKeys),
                  pool_.url().key(kSagaCompleted), std::to_string(kit::to_micros(cutoff)),
                  std::to_string(batch_size), tenant == nullptr ? "" : tenant->value()},
                 Replay::kSafeWrite)
            .integer());
  }

  // Keeps the page's matches (until limit + 1) and moves `low` behind the last member
  // read; false once it holds limit + 1.
  bool take_page(const Reply& reply, const SagaListRequest& request,
                 std::vector<SagaSummary>& matches, std::string& low) const {
    for (std::size_t i = 0; i < reply.size(); ++i) {
      std::vector<std::string> entry = reply.strings_at(i);
      if (entry.size() < 2) {
        continue;
      }
      low = "(" + entry.back();
      entry.resize(entry.size() - 2);
      if (entry.empty()) {
        continue;  // purged between the index read and the hash read: gone
      }
      SagaSummary summary = saga_summary_of(entry, name_);
      if ((request.status && summary.status != *request.status) ||
          (request.saga_type && summary.saga.saga_type() != *request.saga_type) ||
          (request.updated_before && summary.updated_at >= *request.updated_before)) {
        continue;
      }
      matches.push_back(std::move(summary));
      if (matches.size() > request.limit) {
        return false;
      }
    }
    return true;
  }

  Unit& joined(HandlerTransaction& transaction) {
    try {
      return joined_unit(transaction, pool_.url(), name_, "work on a saga");
    } catch (const ConfigurationError& e) {
      throw cannot_join_error(transaction, e.what());
    }
  }

  // The saga's view in `unit`, the next record the save leaves, staged; or the conflict.
  SagaSaveResult save_in(Unit& unit, const SaveRequest& request) {
    const std::optional<SagaRecord> current = unit.sagas().view(
        unit.staged_sagas(), request.saga, [&] { return first_read(request.saga); });
    WriteResult<SagaRecord> next = next_record(request, current);
    if (next.is_conflict()) {
      return next.conflict();
    }
    const std::string member = saga_member(request.saga);
    SagaRecord record = next.success();
    const std::int64_t version = record.version;
    unit.stage_saga(UnitSagas::Save{
        .saga = request.saga,
        .record = std::move(record),
        .write = SagaTarget{.key = saga_key(pool_.url(), member), .member = member}});
    return SagaSaved{.new_version = version};
  }

  kit::SagaRead<std::int64_t> first_read(const SagaId& saga) {
    std::optional<SagaRecord> record = do_load(saga);
    const std::int64_t version = record ? record->version : kNewSaga;
    return {.record = std::move(record), .base = version};
  }

  std::optional<SagaRecord> read(const std::string& key) {
    const Reply reply = pool_.run({"HGETALL", key}, Replay::kSafe);
    if (reply.is_error()) {
      throw InfrastructureError(name_ + ": the saga key '" + key + "' is refused by Redis (" +
                                std::string(reply.text()) +
                                "): a key of another type where docket keeps the saga; remove "
                                "it, or give docket a prefix of its own (?prefix=)");
    }
    const std::vector<std::string> pairs = reply.strings();
    if (pairs.empty()) {
      return std::nullopt;
    }
    return saga_record_of(pairs, name_);
  }

  Pool pool_;
  Script commit_script_;
  Script script_;
  UnitContext context_;
  std::string name_;
};

}  // namespace

std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock) {
  return std::make_unique<RedisSagaStore>(url, clock);
}

}  // namespace docket::redis::detail
