// The Cosmos DB SagaStore: one item per saga in {prefix}docket_sagas, its id
// t:{tenant}:{sagaId} and its partition key the saga type (cosmos_saga_item.h), so each
// tenant has its own saga and versions.
//
// Optimistic concurrency by etag (the save is kit/tagged_saga_store.h's): a save of a
// new saga (kNewSaga) is a create, refused (409) where the saga exists; a save at
// version N replaces the whole item under the etag read (If-Match), which a concurrent
// save changed (412). A write is never resent after an ambiguous failure (the client's
// Replay::kUnsafe). An item over kMaxItemBytes is refused before anything is sent.
//
// load is one point read. list is one query over every partition with a condition per
// filter set, in listKey order behind the page's position, at most limit + 1 items.
// purge_completed_batch queries completed sagas by completedAt before the cutoff, oldest
// first, and deletes each under the etag it was listed with, so a saga changed since is
// kept; the count is what this call deleted.
//
// Re-key marker: every operation first probes, once per instance, for the marker of a
// tenant re-key in progress (cosmos_tenant_rekey_marker.h) and refuses while it is there
// (LegacyDataError).
//
// Guard: a load that finds nothing, a create (kNewSaga), a save that finds no saga, and a
// listing (an untenanted item would be listed under no tenant) run the container's
// legacy-key probe (cosmos_legacy_guard.h) for an id without its tenant segment
// ({sagaId}), once per store instance. A read that returns the saga is never probed.
//
// Capabilities: it does not join a handler's unit of work (transaction_type() is
// nullopt): that unit is one batch in the inbox container's tenant partition, and a saga
// lives in its type's partition of another container; the overloads taking a
// HandlerTransaction are refused with a ConfigurationError saying so. Shared between
// processes; one item per saga, at most kMaxItemBytes.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_SAGA_STORE_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_SAGA_STORE_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/sagas/saga_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_legacy_guard.h"
#include "providers/cosmos/cosmos_saga_item.h"
#include "providers/cosmos/cosmos_tenant_rekey_marker.h"
#include "providers/kit/tagged_saga_store.h"

namespace docket::cosmos::detail {

class CosmosSagaStore final : public kit::TaggedSagaStore {
 public:
  // Throws ConfigurationError for a URL parse_store_url refuses; sends nothing. `marker`
  // is kSkip only for the tenant re-key's own verification.
  CosmosSagaStore(std::string_view url, const Clock& clock,
                  kit::RekeyMarkerCheck marker = kit::RekeyMarkerCheck::kProbe);

  std::string_view provider_name() const noexcept override { return "cosmos"; }
  StoreCapabilities capabilities() const noexcept override;

  // The legacy-key probes this store has sent (0 or 1).
  int legacy_probes() const noexcept { return guard_.probes(); }
  const std::string& container() const noexcept { return container_; }

 protected:
  std::optional<SagaRecord> do_load(const SagaId& saga) override;
  SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request) override;
  std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction,
                                       const SagaId& saga) override;
  SagaPage do_list(const SagaListRequest& request) override;
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override;

 private:
  // The save's steps (kit/tagged_saga_store.h): the item's size, the marker and the
  // container; the item and its etag; a create; a replace under the etag (If-Match).
  void before_save(const SagaId& saga, const SagaRecord& record) override;
  kit::TaggedSaga read_saga(const SagaId& saga) override;
  bool create_saga(const SagaId& saga, const SagaRecord& record) override;
  bool replace_saga(const SagaId& saga, const SagaRecord& record, const std::string& etag) override;
  // Where the saga's item is.
  ItemAddress address(const saga::SagaAddress& where) const;
  [[noreturn]] void refuse_join(HandlerTransaction& transaction) const;

  Client client_;
  std::string container_;
  LegacyGuard guard_;
  std::string store_;  // for errors
  RekeyMarkerProbe rekey_marker_;
};

// Throws what the constructor throws.
std::unique_ptr<SagaStore> open_saga_store(std::string_view url, const Clock& clock);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_SAGA_STORE_H_
