// The Firestore InboxStore and its unit of work (firestore_inbox_store.h).
#include "providers/firestore/firestore_inbox_store.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "docket/firestore/transaction.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/spi/inbox_unit.h"
#include "providers/firestore/firestore_checkpoint_store.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_inbox_document.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_unit.h"
#include "providers/firestore/firestore_value.h"
#include "providers/kit/recorded_ids.h"
#include "providers/kit/store_kind_capabilities.h"

namespace docket::firestore::detail {
namespace {

constexpr std::size_t kInboxBatchGetIds = 100;

// For each of `message_ids`, in order, whether (tenant, consumer_id) has its dedup
// document in `collection`: one batchGet per 100 distinct ids read (kit/recorded_ids.h);
// the ids `staged` (when given) says a unit of work holds are answered without a read.
std::vector<bool> recorded_ids(const Client& client, const std::string& collection,
                               std::string_view tenant, std::string_view consumer_id,
                               std::span<const std::string> message_ids,
                               std::function<bool(const std::string& id)> staged = nullptr) {
  const auto id_of = [&](const std::string& message_id) {
    return inbox::dedup_id(collection,
                           DedupKey{std::string(tenant), std::string(consumer_id), message_id});
  };
  const auto read = [&](std::span<const std::string> ids) {
    std::vector<bool> present;
    present.reserve(ids.size());
    for (const std::optional<Document>& document : batch_get(client, collection, ids)) {
      present.push_back(document.has_value());
    }
    return present;
  };
  return kit::recorded_among(
      message_ids,
      kit::RecordedReads{
          .chunk = kInboxBatchGetIds, .id_of = id_of, .known = std::move(staged), .read = read});
}

class FirestoreUnitOfWork final : public spi::InboxUnit {
 public:
  FirestoreUnitOfWork(const detail::UnitContext& context, const std::string& collection,
                      const Clock& clock)
      : unit_(context), collection_(collection), clock_(clock) {}

  bool try_record(const InboxRecord& record) override {
    const std::string id = inbox::dedup_id(collection_, record.key);
    if (unit_.holds(collection_, id) || get_document(unit_.client(), collection_, id)) {
      return false;
    }
    stage(id, record);
    return true;
  }
  bool record_at_commit(const InboxRecord& record) override {
    stage(inbox::dedup_id(collection_, record.key), record);
    return true;
  }
  bool is_recorded(const DedupKey& key) override {
    const std::string id = inbox::dedup_id(collection_, key);
    return unit_.holds(collection_, id) || get_document(unit_.client(), collection_, id);
  }
  // The segmented batch's pre-check: one batchGet for the unit's messages (read as
  // is_recorded reads: outside any transaction, the unit has none); the documents this
  // unit staged are recorded without a read.
  std::vector<bool> recorded_among(std::string_view tenant, std::string_view consumer_id,
                                   std::span<const std::string> message_ids) override {
    return recorded_ids(unit_.client(), collection_, tenant, consumer_id, message_ids,
                        [this](const std::string& id) { return unit_.holds(collection_, id); });
  }
  // Every write is held until the one commit of commit() anyway, so a segmented batch
  // costs nothing more: its dedup writes go unread (record_at_commit) after the
  // pre-check. No segment fails on its own: a document created meanwhile by a concurrent
  // delivery refuses the whole commit, and commit() throws UniqueViolationError
  // (DuplicateDeliveryError; the dispatcher runs the unit again, whose pre-check then
  // sees it), so take_segment_failures() stays empty and `stop_at_failure` changes
  // nothing.
  bool defer_segments(bool /*stop_at_failure*/) override { return true; }
  HandlerTransaction& handler_transaction() noexcept override { return unit_.transaction(); }
  void begin_savepoint() override { unit_.begin_savepoint(); }
  void release_savepoint() override { unit_.release_savepoint(); }
  void rollback_savepoint() override { unit_.rollback_savepoint(); }
  void commit() override { unit_.commit(); }

 private:
  void stage(const std::string& id, const InboxRecord& record) {
    unit_.stage_create(collection_, id, inbox::dedup_fields(record, clock_.now()),
                       detail::Role::kDedup);
  }

  detail::Unit unit_;
  const std::string& collection_;
  const Clock& clock_;
};

class FirestoreInboxStore final : public InboxStore {
 public:
  FirestoreInboxStore(std::string_view url, const Clock& clock)
      : client_(parse_store_url(url)),
        collection_(client_.url().collection(kInboxMessagesTable)),
        context_{client_, "Firestore inbox (collection '" + collection_ + "' at " +
                              client_.url().text + ")"},
        clock_(clock),
        checkpoints_(open_checkpoint_store(url, clock)) {}

  std::string_view provider_name() const noexcept override { return "firestore"; }
  StoreCapabilities capabilities() const noexcept override {
    // The dedup document and the handlers' writes go in one commit, so its limits bound
    // one unit of work; there is no interactive transaction and no feed.
    return kit::buffered_commit_capabilities(kUnitLimits, FeedKind::kNone);
  }
  TransactionType transaction_type() const noexcept override {
    return TransactionType::of<firestore::Transaction>();
  }
  // Firestore makes a collection with its first document: nothing to create.
  void migrate() override {}
  std::unique_ptr<spi::InboxUnit> begin_unit() override {
    return std::make_unique<FirestoreUnitOfWork>(context_, collection_, clock_);
  }
  bool is_recorded(const DedupKey& key) override {
    return get_document(client_, collection_, inbox::dedup_id(collection_, key)).has_value();
  }
  CheckpointStore& checkpoints() noexcept override { return *checkpoints_; }

 protected:
  std::vector<std::string> do_filter_unprocessed(
      const std::string& tenant, std::string_view consumer_id,
      std::span<const std::string> message_ids) override {
    return kit::unrecorded(message_ids,
                           recorded_ids(client_, collection_, tenant, consumer_id, message_ids));
  }
  std::size_t do_purge_batch(Timestamp cutoff, std::size_t limit) override {
    const std::vector<Document> found = run_query(
        client_,
        Query{.collection = collection_,
              .where = field_filter(inbox::kProcessedAt, "LESS_THAN", timestamp_value(cutoff)),
              .order_by = {{std::string(inbox::kProcessedAt), false}},
              .limit = limit});
    return delete_unchanged(client_, collection_, found, context_.store);
  }

  // A query on the consumer (handlerType) and, when given, the tenant: equality filters
  // on single-field indexes, no composite index needed.
  std::size_t do_purge_consumer_batch(const std::string* tenant, std::string_view consumer_id,
                                      std::size_t limit) override {
    std::vector<nlohmann::json> filters{
        field_filter(inbox::kHandlerType, "EQUAL", string_value(consumer_id))};
    if (tenant != nullptr) {
      filters.push_back(field_filter(inbox::kTenant, "EQUAL", string_value(*tenant)));
    }
    const std::vector<Document> found =
        run_query(client_, Query{.collection = collection_,
                                 .where = all_of(std::move(filters)),
                                 .order_by = {},
                                 .limit = limit});
    return delete_unchanged(client_, collection_, found, context_.store);
  }

 private:
  Client client_;
  std::string collection_;
  detail::UnitContext context_;
  const Clock& clock_;
  std::unique_ptr<CheckpointStore> checkpoints_;
};

}  // namespace

std::unique_ptr<InboxStore> open_inbox_store(std::string_view url, const Clock& clock) {
  return std::make_unique<FirestoreInboxStore>(url, clock);
}

}  // namespace docket::firestore::detail
