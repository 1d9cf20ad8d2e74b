#include "providers/cosmos/cosmos_saga_store.h"

#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_limits.h"
#include "providers/cosmos/cosmos_saga_item.h"
#include "providers/kit/saga_listing.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/kit/time_codec.h"

namespace docket::cosmos::detail {
namespace {

void add_parameter(Query& query, std::string_view name, nlohmann::json value) {
  query.parameters.push_back({{"name", name}, {"value", std::move(value)}});
}

}  // namespace

CosmosSagaStore::CosmosSagaStore(std::string_view url, const Clock& clock,
                                 kit::RekeyMarkerCheck marker)
    : SagaStore(clock),
      client_(parse_store_url(url)),
      container_(client_.url().container(saga::kContainer)),
      guard_(container_, LegacyKeyKind::kSaga),
      store_("Cosmos DB saga store (container '" + container_ + "' at " + client_.url().printable +
             ")"),
      rekey_marker_(client_, store_, marker) {}

StoreCapabilities CosmosSagaStore::capabilities() const noexcept {
  // One item per save (no commit to bound); joins no handler's unit of work.
  return kit::saga_store_capabilities({.joins_handler_writes = false,
                                       .interactive_transactions = false,
                                       .max_writes_per_commit = 0,
                                       .max_bytes_per_commit = 0,
                                       .max_bytes_per_record = kMaxItemBytes,
                                       .feed = FeedKind::kNone,
                                       .server_side_expiry = false,
                                       .shared_between_processes = true,
                                       .concurrent_writers = true,
                                       .lease_clock = LeaseClock::kClaimer});
}

SagaSaveResult CosmosSagaStore::do_save(const SaveRequest& request) {
  const saga::SagaAddress where = saga::saga_address(request.saga);
  const ItemAddress address{
      .container = container_, .id = where.id, .partition_key = where.partition};
  SagaRecord record{.version = request.expected_version + 1,
                    .state = std::string(request.state),
                    .status = request.status,
                    .started_at = request.now,
                    .updated_at = request.now,
                    .completed_at = std::nullopt};
  if (request.status == SagaStatus::kCompleted) {
    record.completed_at = request.now;
  }
  // Checked against the limit before anything is sent: a refusal sends nothing.
  check_item_size(saga::saga_item(request.saga, where, record), store_);
  rekey_marker_.check(client_);
  client_.ensure_container(container_, saga::kPartitionKeyPath);
  if (request.expected_version == kNewSaga) {
    guard_.check(client_);  // a create that assumes nothing is there
    if (create_item(client_, address, saga::saga_item(request.saga, where, record))) {
      return SagaSaved{.new_version = record.version};
    }
    return refused(request, read(address));
  }
  const std::optional<ReadItem> current = read(address);
  if (!current) {
    return refused(request, current);
  }
  const SagaRecord found = saga::saga_record_of(current->body, store_);
  if (found.version != request.expected_version || found.completed_at) {
    return refused(request, current);
  }
  record.started_at = found.started_at;
  if (replace_item(client_, address, saga::saga_item(request.saga, where, record), current->etag)) {
    return SagaSaved{.new_version = record.version};
  }
  return refused(request, read(address));
}

SagaSaveResult CosmosSagaStore::refused(const SaveRequest& request,
                                        const std::optional<ReadItem>& current) const {
  std::optional<SagaRecord> found;
  if (current) {
    found = saga::saga_record_of(current->body, store_);
  }
  const std::int64_t actual = found ? found->version : kNewSaga;
  if (found && actual == request.expected_version && found->completed_at) {
    throw completed_saga_error(request.saga, *found->completed_at);
  }
  return VersionConflict{.subject = request.saga.describe(),
                         .expected_version = request.expected_version,
                         .actual_version = actual};
}

std::optional<ReadItem> CosmosSagaStore::read(const ItemAddress& address) {
  std::optional<ReadItem> item = read_item(client_, address);
  if (!item) {
    guard_.check(client_);  // a read that found nothing
  }
  return item;
}

std::optional<SagaRecord> CosmosSagaStore::do_load(const SagaId& saga) {
  const saga::SagaAddress where = saga::saga_address(saga);
  rekey_marker_.check(client_);
  client_.ensure_container(container_, saga::kPartitionKeyPath);
  const std::optional<ReadItem> item =
      read({.container = container_, .id = where.id, .partition_key = where.partition});
  if (!item) {
    return std::nullopt;
  }
  return saga::saga_record_of(item->body, store_);
}

void CosmosSagaStore::refuse_join(HandlerTransaction& transaction) const {
  throw cannot_join_error(
      transaction,
      "a Cosmos DB transactional batch holds one partition of one container, and a "
      "saga lives in its saga type's partition of container '" +
          container_ +
          "', never the inbox's tenant partition; run the saga's steps on the "
          "claim inbox and save the saga without the transaction");
}

SagaSaveResult CosmosSagaStore::do_save_in(HandlerTransaction& transaction,
                                           const SaveRequest& /*request*/) {
  refuse_join(transaction);
}

std::optional<SagaRecord> CosmosSagaStore::do_load_in(HandlerTransaction& transaction,
                                                      const SagaId& /*saga*/) {
  refuse_join(transaction);
}

SagaPage CosmosSagaStore::do_list(const SagaListRequest& request) {
  rekey_marker_.check(client_);
  client_.ensure_container(container_, saga::kPartitionKeyPath);
  guard_.check(client_);  // an untenanted item would be listed under no tenant
  Query query{.container = container_, .sql = "SELECT * FROM c WHERE IS_DEFINED(c.listKey)"};
  if (request.tenant) {
    query.sql += " AND c.tenant = @tenant";
    add_parameter(query, "@tenant", request.tenant->value());
  }
  if (request.saga_type) {
    query.sql += " AND c.sagaType = @type";
    add_parameter(query, "@type", *request.saga_type);
    query.partition = *request.saga_type;  // the type's partition alone
  }
  if (request.status) {
    query.sql += " AND c.status = @status";
    add_parameter(query, "@status", saga::status_text(*request.status));
  }
  if (request.updated_before) {
    query.sql += " AND c.updatedAt < @before";
    add_parameter(query, "@before", kit::to_micros(*request.updated_before));
  }
  if (request.after) {
    query.sql += " AND c.listKey > @after";
    add_parameter(query, "@after", saga::list_key(request.after->saga));
  }
  query.sql += " ORDER BY c.listKey";
  query.order = OrderBy{.path = "listKey"};  // merged over the partition key ranges
  std::vector<SagaSummary> found;
  for (const nlohmann::json& item : query_items(client_, query, request.limit + 1)) {
    found.push_back(saga::saga_summary_of(item, store_));
  }
  return kit::saga_list_page(std::move(found), request.limit);
}

std::size_t CosmosSagaStore::do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                                      const TenantId* tenant) {
  rekey_marker_.check(client_);
  client_.ensure_container(container_, saga::kPartitionKeyPath);
  Query query{.container = container_,
              .sql = "SELECT * FROM c WHERE c.status = 'completed' AND c.completedAt < @cutoff"};
  add_parameter(query, "@cutoff", kit::to_micros(cutoff));
  if (tenant != nullptr) {
    query.sql += " AND c.tenant = @tenant";
    add_parameter(query, "@tenant", tenant->value());
  }
  query.sql += " ORDER BY c.completedAt";
  query.order = OrderBy{.path = "completedAt"};  // merged over the partition key ranges
  std::size_t deleted = 0;
  for (const nlohmann::json& item : query_items(client_, query, batch_size)) {
    const ItemFields fields(item, store_);
    const std::string id = fields.text("id");
    const std::string partition = fields.text("sagaType");
    if (delete_item(client_, {.container = container_, .id = id, .partition_key = partition},
                    fields.text("_etag"))) {
      ++deleted;  // else changed or purged since the query: kept, or not this call's
    }
  }
  return deleted;
}

std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock) {
  return std::make_unique<CosmosSagaStore>(url, clock);
}

}  // namespace docket::cosmos::detail
