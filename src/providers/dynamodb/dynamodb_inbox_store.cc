// The DynamoDB InboxStore and its unit of work (dynamodb_inbox_store.h); its reads of many
// items (filter_unprocessed, the purge) are in dynamodb_inbox_reads.cc.
#include "providers/dynamodb/dynamodb_inbox_store.h"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "docket/dynamodb/transaction.h"
#include "docket/spi/inbox_unit.h"
#include "providers/dynamodb/dynamodb_checkpoint_store.h"
#include "providers/dynamodb/dynamodb_inbox_reads.h"
#include "providers/dynamodb/dynamodb_inbox_table.h"
#include "providers/dynamodb/dynamodb_limits.h"
#include "providers/dynamodb/dynamodb_unit.h"
#include "providers/kit/store_kind_capabilities.h"

namespace docket::dynamodb::detail {
namespace {

class DynamoDbUnitOfWork final : public spi::InboxUnit {
 public:
  DynamoDbUnitOfWork(const detail::UnitContext& context, const inbox::Reads& reads,
                     const Clock& clock)
      : unit_(context), reads_(reads), clock_(clock) {}

  bool try_record(const InboxRecord& record) override {
    const nlohmann::json key = inbox::dedup_key(reads_.schema(), record.key);
    if (unit_.holds(reads_.schema().name, key) || reads_.exists(key)) {
      return false;
    }
    unit_.stage_dedup(reads_.schema(), inbox::dedup_item(reads_.schema(), record, clock_.now()));
    return true;
  }
  bool record_at_commit(const InboxRecord& record) override {
    unit_.stage_dedup(reads_.schema(), inbox::dedup_item(reads_.schema(), record, clock_.now()));
    return true;
  }
  bool is_recorded(const DedupKey& key) override {
    const nlohmann::json item_key = inbox::dedup_key(reads_.schema(), key);
    return unit_.holds(reads_.schema().name, item_key) || reads_.exists(item_key);
  }
  // The segmented batch's pre-check: one consistent BatchGetItem for the unit's messages
  // (100 keys a request); the keys this unit staged are recorded without a read.
  std::vector<bool> recorded_among(std::string_view tenant, std::string_view consumer_id,
                                   std::span<const std::string> message_ids) override {
    return reads_.recorded(
        std::string(tenant), consumer_id, message_ids,
        [this](const nlohmann::json& key) { return unit_.holds(reads_.schema().name, key); });
  }
  // Every write is held until the one TransactWriteItems of commit() anyway, so a
  // segmented batch costs nothing more: its dedup writes go unread (record_at_commit)
  // after the pre-check. No segment ever fails on its own: a key committed meanwhile by
  // a concurrent delivery cancels the whole transaction, and commit() throws
  // UniqueViolationError (the dispatcher runs the unit again, whose pre-check then sees
  // the key), so take_segment_failures() stays empty and `stop_at_failure` changes
  // nothing.
  bool defer_segments(bool /*stop_at_failure*/) override { return true; }
  HandlerTransaction& handler_transaction() noexcept override { return unit_.transaction(); }
  void begin_savepoint() override { unit_.begin_savepoint(); }
  void release_savepoint() override { unit_.release_savepoint(); }
  void rollback_savepoint() override { unit_.rollback_savepoint(); }
  void commit() override { unit_.commit(); }

 private:
  detail::Unit unit_;
  const inbox::Reads& reads_;
  const Clock& clock_;
};

class DynamoDbInboxStore final : public InboxStore {
 public:
  DynamoDbInboxStore(std::string_view url, const Clock& clock)
      : client_(parse_store_url(url)),
        schemas_(client_),
        reads_(client_, inbox::inbox_table_schema(client_.url())),
        context_{client_, schemas_, reads_.store()},
        clock_(clock),
        checkpoints_(open_checkpoint_store(url, clock)) {}

  std::string_view provider_name() const noexcept override { return "dynamodb"; }
  StoreCapabilities capabilities() const noexcept override {
    // The dedup item and the handlers' writes go in one TransactWriteItems, so its limits
    // bound one commit; there is no interactive transaction and no feed.
    return kit::buffered_commit_capabilities(kUnitLimits, FeedKind::kNone);
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<dynamodb::Transaction>();
  }
  void migrate() override { reads_.ensure(); }
  std::unique_ptr<spi::InboxUnit> begin_unit() override {
    reads_.ensure();
    return std::make_unique<DynamoDbUnitOfWork>(context_, reads_, clock_);
  }
  bool is_recorded(const DedupKey& key) override {
    reads_.ensure();
    return reads_.exists(inbox::dedup_key(reads_.schema(), key));
  }
  CheckpointStore& checkpoints() noexcept override { return *checkpoints_; }

 protected:
  std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) override {
    reads_.ensure();
    return reads_.unprocessed(tenant, consumer_id, message_ids);
  }
  std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) override {
    reads_.ensure();
    return reads_.purge_batch(cutoff, limit);
  }
  std::size_t do_purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                      std::size_t limit) override {
    reads_.ensure();
    return reads_.purge_consumer_batch(tenant, consumer_id, limit);
  }

 private:
  Client client_;
  KeySchemas schemas_;
  inbox::Reads reads_;
  detail::UnitContext context_;
  const Clock& clock_;
  std::unique_ptr<CheckpointStore> checkpoints_;
};

}  // namespace

std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock) {
  return std::make_unique<DynamoDbInboxStore>(url, clock);
}

}  // namespace docket::dynamodb::detail
