// The saga store SPI: the state of each saga instance with a version for optimistic
// concurrency, a completed flag, and retention of completed sagas until purged.
//
// Versions: a saga that does not exist has version -1 (kNewSaga); its first save
// creates it at version 0 and each save increments it. A save names the version it
// loaded; if another save got there first, the save is a VersionConflict result and
// changes nothing. There is no "any version" save: a saga state is never overwritten
// blindly.
//
// Invariants every provider keeps (tests/conformance/eventsourcing checks them):
//  - of two saves expecting the same version, at most one succeeds;
//  - a completed saga is retained, readable and final: saving it again throws;
//  - purge deletes only completed sagas whose completion is before the cutoff, at
//    most `batch_size` per batch (one short transaction each);
//  - each tenant has its own saga for the same saga id.
//
// Thread-safety: a store may be used from many threads at once.
#ifndef DOCKET_SAGA_STORE_H_
#define DOCKET_SAGA_STORE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "docket/clock.h"
#include "docket/error.h"
#include "docket/saga_id.h"
#include "docket/tenant.h"
#include "docket/version_conflict.h"

namespace docket {

// The expected version that creates a saga.
inline constexpr std::int64_t kNewSaga = -1;

// Most sagas one purge batch deletes.
inline constexpr std::size_t kMaxPurgeBatch = 10'000;

enum class SagaStatus { kActive, kCompleted };

struct SagaRecord {
  std::int64_t version = 0;
  std::string state{};  // opaque bytes
  SagaStatus status = SagaStatus::kActive;
  Timestamp started_at{};                   // the clock at the first save
  Timestamp updated_at{};                   // the clock at the latest save
  std::optional<Timestamp> completed_at{};  // set by the save that completed it

  friend bool operator==(const SagaRecord&, const SagaRecord&) = default;
};

struct SagaSaved {
  std::int64_t new_version;
};

using SagaSaveResult = WriteResult<SagaSaved>;

class SagaStore {
 public:
  virtual ~SagaStore() = default;
  SagaStore(const SagaStore&) = delete;
  SagaStore& operator=(const SagaStore&) = delete;

  virtual std::string_view provider_name() const noexcept = 0;

  // The saga, or nullopt when it does not exist (or was purged).
  std::optional<SagaRecord> load(const SagaId& saga);

  // Stores `state` if the saga is at `expected_version` (kNewSaga to create it).
  // `status` kCompleted completes it, stamping completed_at from the clock. Throws
  // InvalidInputError (nothing written) when expected_version < -1 or the saga is
  // already completed at that version.
  SagaSaveResult save(const SagaId& saga, std::int64_t expected_version, std::string_view state,
                      SagaStatus status = SagaStatus::kActive);

  // One batch: deletes at most `batch_size` (1..kMaxPurgeBatch) completed sagas of
  // `tenant` (every tenant when nullopt) completed before `cutoff`, oldest completion
  // first, and returns how many it deleted.
  std::size_t purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                    const std::optional<TenantId>& tenant = std::nullopt);

  // Runs batches until one deletes fewer than `batch_size`; returns the total.
  std::size_t purge_completed(Timestamp cutoff, std::size_t batch_size = 1000,
                              const std::optional<TenantId>& tenant = std::nullopt);

 protected:
  explicit SagaStore(const Clock& clock) noexcept : clock_(clock) {}

  struct SaveRequest {
    const SagaId& saga;
    std::int64_t expected_version;  // kNewSaga or >= 0
    std::string_view state;
    SagaStatus status;
    Timestamp now;  // stamps started_at / updated_at / completed_at
  };
  // Atomically: conflict unless the saga is at expected_version; throw
  // InvalidInputError (completed_saga_error) when it is completed; else write.
  virtual SagaSaveResult do_save(const SaveRequest& request) = 0;
  virtual std::optional<SagaRecord> do_load(const SagaId& saga) = 0;
  // `tenant` is null for every tenant. Arguments are validated.
  virtual std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                               const TenantId* tenant) = 0;

  // The error every provider throws for a save to a completed saga.
  static InvalidInputError completed_saga_error(const SagaId& saga, Timestamp completed_at);

 private:
  const Clock& clock_;
};

}  // namespace docket

#endif  // DOCKET_SAGA_STORE_H_
