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
//  - each tenant has its own saga for the same saga id;
//  - list() pages through sagas in one stable order (see below), each saga once.
//
// Listing (list): the sagas of one tenant or of every tenant, filtered by status, saga
// type and last update before a time, without their state, one page of at most
// `limit` at a time through the store's own query (an ordered index read on SQLite and
// PostgreSQL, a filtered Scan on DynamoDB, a structured query on Firestore; never the
// whole store in memory). A page ends at a position (SagaListPosition: the last saga
// listed and its updated_at); passing it as the next request's `after` resumes behind
// it. Over a store that does not change between pages, the pages hold every match
// exactly once. The order is the provider's, stable but not the same on every
// provider: key order (tenant, saga type, saga id, or the key's own order), or, where a
// store must order a read filtered by update time by that time (Firestore), update time
// then key. In key order a saga saved between pages is listed at most once; in update
// time order a save moves it behind the position, out of the listing when
// `updated_before` is in the past. A page may hold fewer than `limit` sagas, even
// none, and still be followed by more; `next` is nullopt only when none is left.
//
// Inside a caller's transaction: the overloads taking a HandlerTransaction (the inbox's
// unit of work, as a handler sees it) read and write the saga in that transaction, so
// the saga's new state commits or rolls back with the message's dedup row, the outbox
// messages the step staged and the handler's other writes (SagaCoordinator does this).
// On PostgreSQL load(transaction, ...) locks the saga row until the unit of work ends
// (SELECT ... FOR UPDATE), so concurrent steps of one saga queue instead of conflicting.
// Only the provider of the transaction can do this (an SQLite saga store in an SQLite
// unit of work on the same database file); any other pairing throws ConfigurationError
// naming both.
//
// Observing conflicts: set_observer attaches an Observer (docket/core/observer.h) that
// hears every save this store answered with a version conflict (on_saga_conflict). A
// save inside a caller's transaction whose conflict only the commit finds (a provider
// that checks versions when the unit commits) is not heard here: the commit's error is.
//
// Thread-safety: a store may be used from many threads at once; set_observer is the
// exception: call it before the store is shared (it is configuration, not state).
#ifndef DOCKET_SAGAS_SAGA_STORE_H_
#define DOCKET_SAGAS_SAGA_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/handler_transaction.h"
#include "docket/core/observer.h"
#include "docket/core/store_capabilities.h"
#include "docket/core/tenant.h"
#include "docket/core/transaction_type.h"
#include "docket/core/version_conflict.h"
#include "docket/sagas/saga_id.h"

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

// Most sagas one list() page holds.
inline constexpr std::size_t kMaxSagaPageSize = 10'000;

// One saga as a listing shows it: its identity and its record without the state.
struct SagaSummary {
  SagaId saga;
  std::int64_t version = 0;
  SagaStatus status = SagaStatus::kActive;
  Timestamp started_at{};
  Timestamp updated_at{};
  std::optional<Timestamp> completed_at{};

  friend bool operator==(const SagaSummary&, const SagaSummary&) = default;
};

// Where a page of a listing ended: the last saga it listed and that saga's updated_at
// as listed (a store that orders by update time resumes from both).
struct SagaListPosition {
  SagaId saga;
  Timestamp updated_at{};

  friend bool operator==(const SagaListPosition&, const SagaListPosition&) = default;
};

// One page of a listing. Every filter set narrows it; none set lists every saga.
struct SagaListRequest {
  std::optional<TenantId> tenant{};           // nullopt: every tenant
  std::optional<SagaStatus> status{};         // nullopt: active and completed
  std::optional<std::string> saga_type{};     // nullopt: every type
  std::optional<Timestamp> updated_before{};  // only sagas last saved before it
  std::optional<SagaListPosition> after{};    // the previous page's `next`; nullopt: first
  std::size_t limit = 100;                    // 1..kMaxSagaPageSize
};

struct SagaPage {
  std::vector<SagaSummary> sagas{};
  std::optional<SagaListPosition> next{};  // pass as `after`; nullopt: none is left
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

  // What this store can do; see docket/core/store_capabilities.h. joins_handler_writes: the
  // overloads below taking a HandlerTransaction work in the transactions of
  // transaction_type() (set exactly when it is); feed is kNone (a saga store has
  // no feed); the rest are those of the provider's stores.
  virtual StoreCapabilities capabilities() const noexcept = 0;

  // The one transaction type whose transactions the overloads below taking a
  // HandlerTransaction work inside (those of an inbox or outbox store of this provider);
  // nullopt when this store works in none (they throw ConfigurationError). A
  // SagaCoordinator compares it with its inbox store's, once, at start-up. The default is
  // nullopt; a provider that overrides do_save_in and do_load_in overrides this too.
  virtual std::optional<TransactionType> transaction_type() const noexcept { return std::nullopt; }

  // The saga, or nullopt when it does not exist (or was purged).
  std::optional<SagaRecord> load(const SagaId& saga);
  // The same, read inside `transaction` (see above): it sees that transaction's own
  // earlier writes. Throws ConfigurationError when this store cannot read in it.
  std::optional<SagaRecord> load(HandlerTransaction& transaction, const SagaId& saga);

  // Stores `state` if the saga is at `expected_version` (kNewSaga to create it).
  // `status` kCompleted completes it, stamping completed_at from the clock. Throws
  // InvalidInputError (nothing written) when expected_version < -1 or the saga is
  // already completed at that version.
  SagaSaveResult save(const SagaId& saga, std::int64_t expected_version, std::string_view state,
                      SagaStatus status = SagaStatus::kActive);

  // The same inside `transaction`: the version check sees that transaction's writes and
  // the state commits when the dispatcher commits (or vanishes when it rolls back). A
  // conflict is still a result value and this call writes nothing then; the caller
  // decides whether the unit of work goes on. Throws as the overload above, and
  // ConfigurationError when this store cannot write in `transaction`.
  SagaSaveResult save(HandlerTransaction& transaction, const SagaId& saga,
                      std::int64_t expected_version, std::string_view state,
                      SagaStatus status = SagaStatus::kActive);

  // One page of sagas (see "Listing" above). Throws InvalidInputError, before
  // anything is read, for a limit outside [1, kMaxSagaPageSize], a saga type that no
  // SagaId takes (empty, not UTF-8, longer than kMaxSagaTypeBytes), or an `after` of
  // another tenant than `tenant` or another saga type than `saga_type`.
  SagaPage list(const SagaListRequest& request);

  // One batch: deletes at most `batch_size` (1..kMaxPurgeBatch) completed sagas of
  // `tenant` (every tenant when nullopt) completed before `cutoff`, oldest completion
  // first, and returns how many it deleted.
  std::size_t purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                    const std::optional<TenantId>& tenant = std::nullopt);

  // Runs batches until one deletes fewer than `batch_size`; returns the total.
  std::size_t purge_completed(Timestamp cutoff, std::size_t batch_size = 1000,
                              const std::optional<TenantId>& tenant = std::nullopt);

  // See "Observing conflicts" above; nullptr detaches.
  void set_observer(std::shared_ptr<Observer> observer) noexcept {
    observer_ = std::move(observer);
  }
  const std::shared_ptr<Observer>& observer() const noexcept { return observer_; }

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
  // The same inside the caller's `transaction`, never committing it. The defaults
  // refuse (ConfigurationError, see cannot_join_error); a provider that can join its
  // own transactions overrides both.
  virtual SagaSaveResult do_save_in(HandlerTransaction& transaction, const SaveRequest& request);
  virtual std::optional<SagaRecord> do_load_in(HandlerTransaction& transaction, const SagaId& saga);
  // One page; `request` is validated. A provider returns at most request.limit sagas
  // matching every filter, in its stable order, starting behind request.after, and sets
  // `next` unless it knows none is left.
  virtual SagaPage do_list(const SagaListRequest& request) = 0;
  // `tenant` is null for every tenant. Arguments are validated.
  virtual std::size_t do_purge_completed_batch(Timestamp cutoff, std::size_t batch_size,
                                               const TenantId* tenant) = 0;

  // The record `request` leaves when the saga is `current` (nullopt: none), or the
  // conflict: the save rule of every store that checks versions itself (the memory
  // provider, and a unit of work that buffers its writes). started_at is kept from
  // `current`. Throws completed_saga_error for a saga completed at the expected version.
  static WriteResult<SagaRecord> next_record(const SaveRequest& request,
                                             const std::optional<SagaRecord>& current);
  // The error every provider throws for a save to a completed saga.
  static InvalidInputError completed_saga_error(const SagaId& saga, Timestamp completed_at);
  // "the <provider> saga store cannot work inside a <transaction type>: <reason>" and
  // what to do instead.
  ConfigurationError cannot_join_error(const HandlerTransaction& transaction,
                                       std::string_view reason) const;

 private:
  SaveRequest checked_request(const SagaId& saga, std::int64_t expected_version,
                              std::string_view state, SagaStatus status) const;
  // Tells the observer of a conflict `result` holds; returns `result`.
  SagaSaveResult observed(const SagaId& saga, SagaSaveResult result) const;

  const Clock& clock_;
  std::shared_ptr<Observer> observer_;
};

}  // namespace docket

#endif  // DOCKET_SAGAS_SAGA_STORE_H_
