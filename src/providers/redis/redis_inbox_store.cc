// The Redis InboxStore and its unit of work (redis_inbox_store.h).
#include "providers/redis/redis_inbox_store.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "docket/redis/transaction.h"
#include "docket/spi/inbox_unit.h"
#include "providers/redis/redis_checkpoint_store.h"
#include "providers/redis/redis_inbox_reads.h"
#include "providers/redis/redis_keyspace.h"
#include "providers/redis/redis_limits.h"
#include "providers/redis/redis_unit.h"

namespace docket::redis::detail {
namespace {

class RedisUnitOfWork final : public spi::InboxUnit {
 public:
  RedisUnitOfWork(const UnitContext& context, InboxReads& reads)
      : unit_(context), reads_(reads), url_(context.pool.url()) {}

  bool try_record(const InboxRecord& record) override {
    std::string id = dedup_id(record.key);
    std::string key = dedup_key(url_, id);
    if (unit_.holds(key) || reads_.exists(key)) {
      return false;
    }
    unit_.stage_dedup(std::move(key), std::move(id), record);
    return true;
  }
  bool record_at_commit(const InboxRecord& record) override {
    std::string id = dedup_id(record.key);
    std::string key = dedup_key(url_, id);
    unit_.stage_dedup(std::move(key), std::move(id), record);
    return true;
  }
  bool is_recorded(const DedupKey& key) override {
    const std::string record = dedup_key(url_, dedup_id(key));
    return unit_.holds(record) || reads_.exists(record);
  }
  // A segmented batch's pre-check: one pipelined TYPE per id; a key this unit staged
  // is recorded without a read.
  std::vector<bool> recorded_among(std::string_view tenant, std::string_view consumer_id,
                                   std::span<const std::string> message_ids) override {
    return reads_.recorded(tenant, consumer_id, message_ids,
                           [this](const std::string& key) { return unit_.holds(key); });
  }
  // Every write is held until the one script run of commit() anyway, so a segmented
  // batch costs nothing more: its dedup records go unread (record_at_commit) after the
  // pre-check. No segment ever fails alone: a record committed meanwhile by a concurrent
  // delivery refuses the whole script, and commit() throws DuplicateDeliveryError (the
  // dispatcher runs the unit again, whose pre-check then sees the record), so
  // take_segment_failures() stays empty and `stop_at_failure` changes nothing.
  bool defer_segments(bool /*stop_at_failure*/) override { return true; }
  HandlerTransaction& handler_transaction() noexcept override { return unit_.transaction(); }
  void begin_savepoint() override { unit_.begin_savepoint(); }
  void release_savepoint() override { unit_.release_savepoint(); }
  void rollback_savepoint() override { unit_.rollback_savepoint(); }
  void commit() override { unit_.commit(); }

 private:
  Unit unit_;
  InboxReads& reads_;
  const RedisUrl& url_;
};

class RedisInboxStore final : public InboxStore {
 public:
  RedisInboxStore(std::string_view url, const Clock& clock)
      : pool_(parse_url(url)),
        commit_script_("the inbox commit script", commit_script_source()),
        context_{pool_, commit_script_, pool_.url().key(kDedupIndex), clock},
        reads_(pool_),
        checkpoints_(open_checkpoint_store(url, clock)) {}

  std::string_view provider_name() const noexcept override { return "redis"; }
  StoreCapabilities capabilities() const noexcept override {
    return {.joins_handler_writes = true,
            .interactive_transactions = false,
            .max_writes_per_commit = 0,
            .max_bytes_per_commit = kMaxCommitBytes,
            .max_bytes_per_record = kMaxBulkBytes,
            .feed = FeedKind::kNone,
            .server_side_expiry = false,
            .shared_between_processes = true,
            .concurrent_writers = false};
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<redis::Transaction>();
  }
  // Redis has no schema: keys are made by the writes that need them.
  void migrate() override {}
  std::unique_ptr<spi::InboxUnit> begin_unit() override {
    return std::make_unique<RedisUnitOfWork>(context_, reads_);
  }
  bool is_recorded(const DedupKey& key) override {
    return reads_.exists(dedup_key(pool_.url(), dedup_id(key)));
  }
  CheckpointStore& checkpoints() noexcept override { return *checkpoints_; }

 protected:
  std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) override {
    const std::vector<bool> recorded =
        reads_.recorded(tenant, consumer_id, message_ids, [](const std::string&) { return false; });
    std::vector<std::string> unprocessed;
    for (std::size_t i = 0; i < message_ids.size(); ++i) {
      if (!recorded[i]) {
        unprocessed.push_back(message_ids[i]);
      }
    }
    return unprocessed;
  }
  std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) override {
    return reads_.purge_batch(cutoff, limit);
  }
  std::size_t do_purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                      std::size_t limit) override {
    return reads_.purge_consumer_batch(tenant, consumer_id, limit);
  }

 private:
  Pool pool_;
  Script commit_script_;
  UnitContext context_;
  InboxReads reads_;
  std::unique_ptr<CheckpointStore> checkpoints_;
};

}  // namespace

std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock) {
  return std::make_unique<RedisInboxStore>(url, clock);
}

}  // namespace docket::redis::detail
