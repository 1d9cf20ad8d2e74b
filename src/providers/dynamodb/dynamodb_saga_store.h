// The DynamoDB SagaStore: one item per saga in <table_prefix>docket_sagas
// (dynamodb_saga_item.h), partition key SAGA#t:{tenant}:{sagaId} (kit::saga_key: each
// tenant has its own saga and versions), sort key the saga type.
//
// save of a new saga (kNewSaga) is one PutItem conditional on attribute_not_exists(pk);
// of a saga at version N, one UpdateItem conditional on version = N AND status =
// active, which keeps started_at and sets the rest (and, when it completes the saga,
// completed_at and the purge index's shard). Of two saves expecting one version the
// condition lets one through. A failed condition is read back (a strongly consistent
// GetItem) to say which it was: the saga completed at that version (InvalidInputError,
// completed_saga_error) or a conflict with the version found. Both writes are
// Replay::kUnsafe: a resend of an applied save would meet its own write and report a
// conflict with itself, so an ambiguous failure is thrown, never resent.
//
// load is a strongly consistent GetItem.
//
// purge_completed_batch reads completed sagas through sparse indexes (only a completed
// saga carries completed_at): for one tenant, tenant_completed (tenant /
// completed_at), oldest first; for every tenant, shard_completed (shard /
// completed_at), one Query per shard, merged oldest first. Each candidate is deleted
// with a DeleteItem conditional on its completion before the cutoff. No read scans the
// table.
//
// list is a Scan of the table, ConsistentRead, with a FilterExpression of the filters
// set (tenant, saga_type, status, updated_at before), a projection without the state,
// resumed after the page's position as the Scan's ExclusiveStartKey (the position's
// key, from src/keys), in the Scan's order (by the partition key's hash, then the saga
// type: stable while the table is). A Scan because no index holds every saga by
// tenant, status or update time: the partition key joins tenant and saga id, so no
// Query names one tenant's sagas, and the only indexes are the purge's, sparse (only
// completed sagas are in them) and ordered by completion. A page reads scan pages of
// up to kSagaListScanItems items until it holds limit + 1 matches or the table ends, so
// its work grows with the table, not with the matches; an index for it would be a
// table change (docket never alters a table) for an operator's read. Listing runs the
// legacy-key guard first (once per instance), since an untenanted item has no tenant to
// list it under.
//
// Guard: a load that finds nothing, a create (kNewSaga), and a failed save that finds
// no saga run the table's legacy-key probe (dynamodb_legacy_guard.h) for a partition
// key without its tenant segment (SAGA#{sagaId}), once per store instance. A read that
// returns an item is never probed. Every load, save and purge first probes, once per
// instance, for the marker of a tenant re-key in progress (dynamodb_tenant_rekey.h) and
// refuses while it is there.
//
// Inside a handler's unit of work (the transaction of a DynamoDB inbox or outbox store
// on the same URL; kit/unit_sagas.h): load reads each saga once per unit (the same
// GetItem and guard) and then answers from the unit's own saves; save checks the
// version the unit sees and stages the whole item, which the unit's TransactWriteItems
// carries once per saga (its latest save) on the condition that the saga is still as
// first read (attribute_not_exists, or version = N AND status = active). Another unit
// that saved the saga in between fails the commit with SagaConflictError.
//
// Capabilities: joins the provider's own units of work (transaction_type():
// docket::dynamodb::Transaction); one item per save, at most kMaxItemBytes; shared
// between processes.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SAGA_STORE_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SAGA_STORE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/dynamodb/transaction.h"
#include "docket/sagas/saga_store.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_legacy_guard.h"
#include "providers/dynamodb/dynamodb_table_once.h"
#include "providers/dynamodb/dynamodb_tenant_rekey.h"
#include "providers/dynamodb/dynamodb_unit.h"
#include "providers/kit/conditional_saga_store.h"

namespace docket::dynamodb::detail {

class DynamoDbSagaStore final : public kit::ConditionalSagaStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses or missing AWS
  // credentials; sends nothing. `probe_items` is the legacy probe's page size; `marker`
  // kSkip only for the tenant re-key's own verification.
  DynamoDbSagaStore(std::string_view url, const Clock& clock,
                    std::size_t probe_items = kLegacyProbeItems,
                    kit::RekeyMarkerCheck marker = kit::RekeyMarkerCheck::kProbe);

  std::string_view provider_name() const noexcept override { return "dynamodb"; }
  StoreCapabilities capabilities() const noexcept override;
  std::optional<TransactionType> transaction_type() const noexcept override {
    return TransactionType::of<dynamodb::Transaction>();
  }

  // The legacy-key probes this store has sent (0 or 1).
  int legacy_probes() const noexcept { return guard_.probes(); }
  const std::string& table_name() const noexcept { return table_.name(); }

 protected:
  SagaSaveResult do_save(const SaveRequest& request) override;
  std::optional<SagaRecord> do_load(const SagaId& saga) override;
  SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request) override;
  std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction,
                                       const SagaId& saga) override;
  SagaPage do_list(const SagaListRequest& request) override;
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override;

 private:
  struct Candidate;  // a completed saga the purge may delete

  // The unit of work under `transaction` (dynamodb_unit.h), or cannot_join_error.
  detail::Unit& joined_unit(HandlerTransaction& transaction) const;
  // The saga as `unit` sees it (kit/unit_sagas.h), read through do_load the first time.
  std::optional<SagaRecord> view(detail::Unit& unit, const SagaId& saga);
  // The saga's item read strongly consistent, or nullopt.
  std::optional<SagaRecord> read(const nlohmann::json& key);
  // What a save whose condition failed met (kit/conditional_saga_store.h), read
  // strongly consistent: the completed saga at its version (thrown), or a conflict.
  SagaSaveResult refused(const SaveRequest& request, const nlohmann::json& key);
  // Up to `limit` completed sagas of one index partition before `cutoff`, oldest first.
  std::vector<Candidate> completed(std::string_view index, const nlohmann::json& partition,
                                   const nlohmann::json& cutoff, std::size_t limit) const;

  Client client_;
  TableOnce table_;
  LegacyGuard guard_;
  std::string store_;  // for errors
  RekeyMarkerProbe rekey_marker_;
};

// Throws what the constructor throws.
std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SAGA_STORE_H_
