// The memory saga store: saga records in a map by SagaId.
//
// Locking: one reader/writer lock; save and purge hold it exclusively (the version
// check and the write are one step, so of two saves expecting one version exactly one
// wins), load holds it shared.
//
// Thread-safety: every member is safe to call from many threads.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_SAGA_STORE_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_SAGA_STORE_H_

#include <map>
#include <shared_mutex>

#include "docket/saga_store.h"

namespace docket::memory::detail {

class MemorySagaStore final : public SagaStore {
 public:
  explicit MemorySagaStore(const Clock& clock) noexcept : SagaStore(clock) {}

  std::string_view provider_name() const noexcept override { return "memory"; }

 private:
  SagaSaveResult do_save(const SaveRequest& request) override;
  std::optional<SagaRecord> do_load(const SagaId& saga) override;
  std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                       const TenantId* tenant) override;

  mutable std::shared_mutex mutex_;
  std::map<SagaId, SagaRecord> sagas_;
};

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_SAGA_STORE_H_
