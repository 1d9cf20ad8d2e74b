#include "providers/memory/memory_unit.h"

#include <algorithm>
#include <string>
#include <utility>

#include "docket/error.h"

namespace docket::memory::detail {
void Unit::insert(std::string_view table, Terms key, Terms values) {
  require_open("insert");
  if (find(table, key)) {
    throw_unique_violation(table, key, "visible to this unit of work");
  }
  staged_.add(StagedInsert{std::string(table), std::move(key), std::move(values)});
}

std::optional<Terms> Unit::find(std::string_view table, const Terms& key) const {
  const auto& inserts = staged_.list<StagedInsert>();
  const auto staged = std::find_if(inserts.begin(), inserts.end(), [&](const StagedInsert& s) {
    return s.table == table && s.key == key;
  });
  if (staged != inserts.end()) {
    return staged->values;
  }
  return database_.find(table, key);
}

std::size_t Unit::count(std::string_view table) const {
  const auto staged =
      std::count_if(staged_.list<StagedInsert>().begin(), staged_.list<StagedInsert>().end(),
                    [&](const StagedInsert& s) { return s.table == table; });
  return database_.count(table) + static_cast<std::size_t>(staged);
}

std::int64_t Unit::stream_version(const StreamId& stream) const {
  const auto& appends = staged_.list<StagedAppend>();
  const auto latest = std::find_if(appends.rbegin(), appends.rend(),
                                   [&](const StagedAppend& a) { return a.stream == stream; });
  return latest != appends.rend() ? latest->events.back().version
                                  : database_.stream_version(stream);
}

void Unit::stage_append(StagedAppend append) {
  require_open("append");
  staged_.add(std::move(append));
}

std::optional<SagaRecord> Unit::find_saga(const SagaId& saga) const {
  const auto& saves = staged_.list<StagedSagaSave>();
  const auto latest = std::find_if(saves.rbegin(), saves.rend(),
                                   [&](const StagedSagaSave& s) { return s.saga == saga; });
  if (latest != saves.rend()) {
    return latest->record;
  }
  return database_.find_saga(saga);
}

void Unit::stage_saga_save(StagedSagaSave save) {
  require_open("save a saga");
  staged_.add(std::move(save));
}

void Unit::begin_savepoint() {
  require_open("begin a savepoint");
  staged_.begin_savepoint();
}

void Unit::release_savepoint() {
  require_open("release a savepoint");
  staged_.release_savepoint();
}

void Unit::rollback_savepoint() {
  require_open("roll back to a savepoint");
  staged_.rollback_savepoint();
}

void Unit::commit() {
  require_open("commit");
  ended_ = true;
  database_.commit(staged_);
}

void Unit::require_open(std::string_view operation) const {
  if (ended_) {
    throw InfrastructureError("memory unit of work: cannot " + std::string(operation) +
                              " after commit; open a new unit of work");
  }
}

Unit& joined_unit(HandlerTransaction& transaction, const Database& database,
                  const std::function<ConfigurationError(const std::string& reason)>& refuse) {
  auto* memory_tx = dynamic_cast<Transaction*>(&transaction);
  if (memory_tx == nullptr) {
    throw refuse("it is another provider's transaction, and memory stores work only in a " +
                 std::string(Transaction::kTypeName));
  }
  Unit& unit = memory_tx->unit();
  if (&unit.database() != &database) {
    throw refuse("the transaction is on " + unit.database().describe() + " and this store on " +
                 database.describe() +
                 "; open the inbox (or outbox) store and this store on one "
                 "docket::memory::Database (see docket/memory/database.h)");
  }
  return unit;
}

}  // namespace docket::memory::detail
