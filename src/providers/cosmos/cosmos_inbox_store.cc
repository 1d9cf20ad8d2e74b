// The Cosmos DB InboxStore and its unit of work (cosmos_inbox_store.h).
#include "providers/cosmos/cosmos_inbox_store.h"

#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "docket/cosmos/transaction.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/keys/provider.h"
#include "docket/spi/inbox_unit.h"
#include "providers/cosmos/cosmos_checkpoint_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_exact_time.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_limits.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/kit/key_bridge.h"
#include "providers/kit/recorded_ids.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {
namespace {

constexpr std::size_t kRecordedIdsPerQuery = 100;

std::string dedup_item_id(const DedupKey& key) {
  return kit::inbox_dedup_id(keys::Provider::kCosmosDb, key).value;
}

nlohmann::json text_or_null(const std::optional<std::string>& text) {
  return text ? nlohmann::json(*text) : nlohmann::json(nullptr);
}

nlohmann::json dedup_item(const InboxRecord& record, Timestamp processed_at) {
  return {{kTableProperty, kInboxMessagesTable},
          {"tenant", record.key.tenant},
          {"consumerId", record.key.consumer_id},
          {"messageId", record.key.message_id},
          {"eventType", record.event_type},
          {"occurredAt", exact_time(record.occurred_at)},  // the caller's: any time
          {"processedAt", kit::to_micros(processed_at)},
          {"source", text_or_null(record.source)},
          {"causationId", text_or_null(record.causation_id)},
          {"correlationId", text_or_null(record.correlation_id)}};
}

// For each of `message_ids`, in order, whether (tenant, consumer_id) has its dedup item:
// one query of the tenant's partition per 100 distinct ids (kit/recorded_ids.h); the ids
// `staged` (when given) says a unit of work holds are answered without a read.
std::vector<bool> recorded_ids(const Client& client, const std::string& container,
                               const std::string& tenant, std::string_view consumer_id,
                               std::span<const std::string> message_ids,
                               std::function<bool(const std::string& id)> staged = nullptr) {
  const auto id_of = [&](const std::string& message_id) {
    return dedup_item_id(DedupKey{tenant, std::string(consumer_id), message_id});
  };
  const auto read = [&](std::span<const std::string> ids) {
    nlohmann::json wanted = nlohmann::json::array();
    for (const std::string& id : ids) {
      wanted.push_back(id);
    }
    std::vector<nlohmann::json> found = query_items(
        client,
        {.container = container,
         .sql = "SELECT VALUE c.id FROM c WHERE c.pk = @pk AND ARRAY_CONTAINS(@ids, c.id)",
         .parameters = {{{"name", "@pk"}, {"value", tenant}},
                        {{"name", "@ids"}, {"value", wanted}}},
         .partition = tenant},
        ids.size());
    std::vector<bool> present;
    present.reserve(ids.size());
    for (const std::string& id : ids) {
      present.push_back(std::find(found.begin(), found.end(), nlohmann::json(id)) != found.end());
    }
    return present;
  };
  return kit::recorded_among(
      message_ids,
      kit::RecordedReads{
          .chunk = kRecordedIdsPerQuery, .id_of = id_of, .known = std::move(staged), .read = read});
}

// Deletes each item of `found` (a query's, with its id, pk and etag) unless it changed
// since; how many it deleted.
std::size_t delete_found(const Client& client, const std::string& container,
                         const std::vector<nlohmann::json>& found) {
  std::size_t deleted = 0;
  for (const nlohmann::json& item : found) {
    const std::string id = item.value("id", "");
    const std::string pk = item.value(std::string(kPartitionProperty), "");
    const std::string etag = item.value("_etag", "");
    if (!id.empty() &&
        delete_item(client, {.container = container, .id = id, .partition_key = pk}, etag)) {
      ++deleted;
    }
  }
  return deleted;
}

class CosmosUnitOfWork final : public spi::InboxUnit {
 public:
  CosmosUnitOfWork(const UnitContext& context, const Clock& clock)
      : unit_(context), context_(context), clock_(clock) {}

  bool try_record(const InboxRecord& record) override {
    if (is_recorded(record.key)) {
      return false;
    }
    record_at_commit(record);
    return true;
  }
  bool record_at_commit(const InboxRecord& record) override {
    unit_.stage_dedup(record.key.tenant, dedup_item_id(record.key),
                      dedup_item(record, clock_.now()));
    return true;
  }
  bool is_recorded(const DedupKey& key) override {
    const std::string id = dedup_item_id(key);
    return unit_.holds(key.tenant, id) ||
           read_item(context_.client,
                     {.container = context_.container, .id = id, .partition_key = key.tenant})
               .has_value();
  }
  std::vector<bool> recorded_among(std::string_view tenant, std::string_view consumer_id,
                                   std::span<const std::string> message_ids) override {
    const std::string partition(tenant);
    return recorded_ids(
        context_.client, context_.container, partition, consumer_id, message_ids,
        [this, &partition](const std::string& id) { return unit_.holds(partition, id); });
  }
  // Every operation waits for the one batch of commit() anyway, so a segmented batch
  // costs nothing more. No segment fails alone: a dedup item created meanwhile by a
  // concurrent delivery fails the whole batch, and commit() throws DuplicateDeliveryError.
  bool defer_segments(bool /*stop_at_failure*/) override { return true; }
  HandlerTransaction& handler_transaction() noexcept override { return unit_.transaction(); }
  void begin_savepoint() override { unit_.begin_savepoint(); }
  void release_savepoint() override { unit_.release_savepoint(); }
  void rollback_savepoint() override { unit_.rollback_savepoint(); }
  void commit() override { unit_.commit(); }

 private:
  Unit unit_;
  const UnitContext& context_;
  const Clock& clock_;
};

class CosmosInboxStore final : public InboxStore {
 public:
  CosmosInboxStore(std::string_view url, const Clock& clock)
      : client_(parse_store_url(url)),
        context_{client_, client_.url().container(kInboxContainerBase),
                 "Cosmos DB inbox (container '" + client_.url().container(kInboxContainerBase) +
                     "' at " + client_.url().printable + ")"},
        clock_(clock),
        checkpoints_(open_checkpoint_store(url, clock)) {}

  std::string_view provider_name() const noexcept override { return "cosmos"; }
  StoreCapabilities capabilities() const noexcept override {
    // The dedup item and the handlers' writes go in one transactional batch, so its
    // limits bound one unit of work; there is no interactive transaction and no feed.
    return kit::buffered_commit_capabilities({.max_writes = kMaxBatchOperations,
                                              .max_bytes = kMaxBatchBytes,
                                              .max_record_bytes = kMaxItemBytes},
                                             FeedKind::kNone);
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<cosmos::Transaction>();
  }
  void migrate() override { client_.ensure_container(context_.container, kInboxPartitionKeyPath); }
  std::unique_ptr<spi::InboxUnit> begin_unit() override {
    migrate();
    return std::make_unique<CosmosUnitOfWork>(context_, clock_);
  }
  bool is_recorded(const DedupKey& key) override {
    migrate();
    return read_item(client_, {.container = context_.container,
                               .id = dedup_item_id(key),
                               .partition_key = key.tenant})
        .has_value();
  }
  CheckpointStore& checkpoints() noexcept override { return *checkpoints_; }

 protected:
  std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) override {
    migrate();
    return kit::unrecorded(
        message_ids, recorded_ids(client_, context_.container, tenant, consumer_id, message_ids));
  }
  std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) override {
    migrate();
    return delete_found(
        client_, context_.container,
        query_items(client_,
                    {.container = context_.container,
                     .sql = "SELECT * FROM c WHERE c.docketTable = @table AND c.processedAt < "
                            "@cutoff",
                     .parameters = {{{"name", "@table"}, {"value", kInboxMessagesTable}},
                                    {{"name", "@cutoff"}, {"value", kit::to_micros(cutoff)}}}},
                    limit));
  }
  std::size_t do_purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                      std::size_t limit) override {
    migrate();
    Query query{.container = context_.container,
                .sql = "SELECT * FROM c WHERE c.docketTable = @table AND c.consumerId = @consumer",
                .parameters = {{{"name", "@table"}, {"value", kInboxMessagesTable}},
                               {{"name", "@consumer"}, {"value", consumer_id}}}};
    if (tenant != nullptr) {
      query.sql += " AND c.pk = @pk";
      query.parameters.push_back({{"name", "@pk"}, {"value", *tenant}});
      query.partition = *tenant;  // the tenant's partition alone
    }
    return delete_found(client_, context_.container, query_items(client_, query, limit));
  }

 private:
  Client client_;
  UnitContext context_;
  const Clock& clock_;
  std::unique_ptr<CheckpointStore> checkpoints_;
};

}  // namespace

std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock) {
  return std::make_unique<CosmosInboxStore>(url, clock);
}

}  // namespace docket::cosmos::detail
