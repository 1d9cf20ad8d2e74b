// One memory unit of work: inserts staged over the committed state, savepoints as
// marks in the staged list, applied atomically by commit().
//
// Reads see the committed state as it is now (like READ COMMITTED) plus this unit's
// staged rows.
//
// Thread-safety: belongs to one thread.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_UNIT_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_UNIT_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "docket/clock.h"
#include "docket/inbox_store.h"
#include "providers/memory/memory_database.h"

namespace docket::memory::detail {

class Unit {
 public:
  explicit Unit(Database& database) noexcept : database_(database) {}

  void insert(std::string_view table, Terms key, Terms values);
  std::optional<Terms> find(std::string_view table, const Terms& key) const;
  std::size_t count(std::string_view table) const;

  // The committed state this unit of work writes to.
  const Database& database() const noexcept { return database_; }

  void begin_savepoint();
  void release_savepoint();
  void rollback_savepoint();

  // Throws UniqueViolationError (nothing applied) or InfrastructureError when the unit
  // already ended.
  void commit();

 private:
  void require_open(std::string_view operation) const;

  Database& database_;
  std::vector<StagedInsert> staged_;
  std::vector<std::size_t> savepoints_;
  bool ended_ = false;
};

// A unit of work of the memory provider (inbox dedup rows and the native
// docket::memory::Transaction) on `database`; defined with the inbox store.
std::unique_ptr<UnitOfWork> open_unit_of_work(Database& database, const Clock& clock);

}  // namespace docket::memory::detail

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_UNIT_H_
