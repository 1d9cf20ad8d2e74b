// The memory saga store: the saga records of a memory database.
//
// Locking: the database's reader/writer lock. A save of its own holds it exclusively
// (the version check and the write are one step, so of two saves expecting one
// version exactly one wins), load holds it shared. A save inside a unit of work checks
// the version the unit sees and stages the new record; the unit's commit checks the
// version again under the exclusive lock, so there too at most one of two saves
// expecting one version lands (the other unit's commit fails).
//
// list walks the records in key order (tenant, saga type, saga id: the map's own order)
// from behind the position, under the shared lock, copying only the page.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_SAGA_STORE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_SAGA_STORE_H_

#include <memory>
#include <optional>

#include "docket/memory/transaction.h"
#include "docket/sagas/saga_store.h"
#include "providers/kit/store_kind_capabilities.h"
#include "providers/memory/memory_capabilities.h"
#include "providers/memory/memory_database.h"

namespace docket::memory::detail {

class MemorySagaStore final : public SagaStore {
 public:
  explicit MemorySagaStore(std::shared_ptr<Database> database) noexcept
      : SagaStore(database->clock()), database_(std::move(database)) {}

  std::string_view provider_name() const noexcept override { return "memory"; }
  StoreCapabilities capabilities() const noexcept override {
    return kit::saga_store_capabilities(kMemoryCapabilities);
  }
  std::optional<TransactionType> transaction_type() const noexcept override {
    return TransactionType::of<memory::Transaction>();
  }

 private:
  SagaSaveResult do_save(const SaveRequest& request) override;
  std::optional<SagaRecord> do_load(const SagaId& saga) override;
  SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request) override;
  std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction,
                                       const SagaId& saga) override;
  SagaPage do_list(const SagaListRequest& request) override;
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override;

  std::shared_ptr<Database> database_;
};

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_SAGA_STORE_H_
