// One memory unit of work: rows, event appends and saga saves staged over the
// committed state, savepoints as marks in the staged lists, applied atomically by
// commit() after the database checks them again under its lock.
//
// Reads see the committed state as it is now (like READ COMMITTED) plus this unit's
// staged writes.
//
// Thread-safety: belongs to one thread.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_UNIT_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_UNIT_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/handler_transaction.h"
#include "docket/inbox/inbox_store.h"
#include "providers/kit/unit_staging.h"
#include "providers/memory/memory_database.h"

namespace docket::memory::detail {

class Unit {
 public:
  explicit Unit(Database& database)
      : database_(database), staging_("memory", kit::CommitLimits{"memory"}) {}

  void insert(std::string_view table, Terms key, Terms values);
  std::optional<Terms> find(std::string_view table, const Terms& key) const;
  std::size_t count(std::string_view table) const;

  // The stream's version as this unit sees it: after its own staged appends.
  std::int64_t stream_version(const StreamId& stream) const;
  // Precondition: append.base_version == stream_version(append.stream).
  void stage_append(StagedAppend append);

  // The saga as this unit sees it: its own latest staged save, or the committed record.
  std::optional<SagaRecord> find_saga(const SagaId& saga) const;
  // Precondition: save.expected_version is the version find_saga(save.saga) shows.
  void stage_saga_save(StagedSagaSave save);

  // The committed state this unit of work writes to.
  const Database& database() const noexcept { return database_; }

  void begin_savepoint() { staging_.begin_savepoint(); }
  void release_savepoint() { staging_.release_savepoint(); }
  void rollback_savepoint() { staging_.rollback_savepoint(); }

  // Wakes the relays once this unit commits (an outbox message was staged).
  void wake_relays_at_commit() noexcept { wake_relays_ = true; }

  // Throws UniqueViolationError (nothing applied) or InfrastructureError when the unit
  // already ended.
  void commit();

 private:
  Database& database_;
  kit::UnitStaging<StagedInsert, StagedAppend, StagedSagaSave> staging_;
  bool wake_relays_ = false;
};

// A unit of work of the memory provider (inbox dedup rows and the native
// docket::memory::Transaction) on `database`; defined with the inbox store.
std::unique_ptr<UnitOfWork> open_unit_of_work(Database& database);

// The unit of work under `transaction` when it is a docket::memory::Transaction on
// `database`. Otherwise throws what `refuse` makes of the reason, which names both
// sides (the transaction's type or database, and `database`).
Unit& joined_unit(HandlerTransaction& transaction, const Database& database,
                  const std::function<ConfigurationError(const std::string& reason)>& refuse);

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_UNIT_H_
