#include "providers/cosmos/cosmos_saga_store.h"

#include <utility>
#include <vector>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_event_item.h"
#include "providers/cosmos/cosmos_limits.h"
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
    : TaggedSagaStore(clock),
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

ItemAddress CosmosSagaStore::address(const saga::SagaAddress& where) const {
  return {.container = container_, .id = where.id, .partition_key = where.partition};
}

void CosmosSagaStore::before_save(const SagaId& saga, const SagaRecord& record) {
  check_item_size(saga::saga_item(saga, saga::saga_address(saga), record), store_);
  rekey_marker_.check(client_);
  client_.ensure_container(container_, saga::kPartitionKeyPath);
}

kit::TaggedSaga CosmosSagaStore::read_saga(const SagaId& saga) {
  const std::optional<ReadItem> item = read_item(client_, address(saga::saga_address(saga)));
  if (!item) {
    guard_.check(client_);  // a read that found nothing
    return {.record = std::nullopt, .base = {}};
  }
  return {.record = saga::saga_record_of(item->body, store_), .base = item->etag};
}

bool CosmosSagaStore::create_saga(const SagaId& saga, const SagaRecord& record) {
  guard_.check(client_);  // a create that assumes nothing is there
  const saga::SagaAddress where = saga::saga_address(saga);
  return create_item(client_, address(where), saga::saga_item(saga, where, record)).has_value();
}

bool CosmosSagaStore::replace_saga(const SagaId& saga, const SagaRecord& record,
                                   const std::string& etag) {
  const saga::SagaAddress where = saga::saga_address(saga);
  return replace_item(client_, address(where), saga::saga_item(saga, where, record), etag)
      .has_value();
}

std::optional<SagaRecord> CosmosSagaStore::do_load(const SagaId& saga) {
  rekey_marker_.check(client_);
  client_.ensure_container(container_, saga::kPartitionKeyPath);
  return read_saga(saga).record;
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
