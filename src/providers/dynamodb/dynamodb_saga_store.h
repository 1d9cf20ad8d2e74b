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
// Guard: a load that finds nothing, a create (kNewSaga), and a failed save that finds
// no saga run the table's legacy-key probe (dynamodb_legacy_guard.h) for a partition
// key without its tenant segment (SAGA#{sagaId}), once per store instance. A read that
// returns an item is never probed.
//
// Capabilities: it works in no handler's transaction (joins_handler_writes false; the
// overloads taking a HandlerTransaction throw ConfigurationError): the provider's
// transactional unit of work buffers its writes, so a saga read inside it could not
// see the step's own save; one item per save, at most kMaxItemBytes; shared between
// processes.
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

#include "docket/clock.h"
#include "docket/saga_store.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_legacy_guard.h"
#include "providers/dynamodb/dynamodb_table_once.h"

namespace docket::dynamodb {

class DynamoDbSagaStore final : public SagaStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses or missing AWS
  // credentials; sends nothing. `probe_items` is the legacy probe's page size.
  DynamoDbSagaStore(std::string_view url, const Clock& clock,
                    std::size_t probe_items = kLegacyProbeItems);

  std::string_view provider_name() const noexcept override { return "dynamodb"; }
  StoreCapabilities capabilities() const noexcept override;

  // The legacy-key probes this store has sent (0 or 1).
  int legacy_probes() const noexcept { return guard_.probes(); }
  const std::string& table_name() const noexcept { return table_.name(); }

 protected:
  SagaSaveResult do_save(const SaveRequest& request) override;
  std::optional<SagaRecord> do_load(const SagaId& saga) override;
  // Refuse with ConfigurationError, saying why (see the capabilities above).
  SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request) override;
  std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction,
                                       const SagaId& saga) override;
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override;

 private:
  struct Candidate;  // a completed saga the purge may delete

  // The saga's item read strongly consistent, or nullopt.
  std::optional<SagaRecord> read(const nlohmann::json& key);
  // What a save whose condition failed met: the completed saga at its version
  // (thrown), or a conflict with the version found.
  SagaSaveResult refused(const SaveRequest& request, const nlohmann::json& key);
  // Up to `limit` completed sagas of one index partition before `cutoff`, oldest first.
  std::vector<Candidate> completed(std::string_view index, const nlohmann::json& partition,
                                   const nlohmann::json& cutoff, std::size_t limit) const;

  Client client_;
  TableOnce table_;
  LegacyGuard guard_;
  std::string store_;  // for errors
};

// Throws what the constructor throws.
std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock);

}  // namespace docket::dynamodb

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_SAGA_STORE_H_
