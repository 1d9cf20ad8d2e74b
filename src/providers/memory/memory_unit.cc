#include "providers/memory/memory_unit.h"

#include <algorithm>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "providers/memory/memory_transaction_access.h"

namespace docket::memory::detail {
void Unit::insert(std::string_view table, Terms key, Terms values) {
  staging_.require_open("insert");
  if (find(table, key)) {
    throw_unique_violation(table, key, "visible to this unit of work");
  }
  staging_.writes().add(StagedInsert{std::string(table), std::move(key), std::move(values)});
}

std::optional<Terms> Unit::find(std::string_view table, const Terms& key) const {
  const auto& inserts = staging_.writes().list<StagedInsert>();
  const auto staged = std::find_if(inserts.begin(), inserts.end(), [&](const StagedInsert& s) {
    return s.table == table && s.key == key;
  });
  if (staged != inserts.end()) {
    return staged->values;
  }
  return database_.find(table, key);
}

std::size_t Unit::count(std::string_view table) const {
  const auto staged = std::count_if(staging_.writes().list<StagedInsert>().begin(),
                                    staging_.writes().list<StagedInsert>().end(),
                                    [&](const StagedInsert& s) { return s.table == table; });
  return database_.count(table) + static_cast<std::size_t>(staged);
}

std::int64_t Unit::stream_version(const StreamId& stream) const {
  const auto& appends = staging_.writes().list<StagedAppend>();
  const auto latest = std::find_if(appends.rbegin(), appends.rend(),
                                   [&](const StagedAppend& a) { return a.stream == stream; });
  return latest != appends.rend() ? latest->events.back().version
                                  : database_.stream_version(stream);
}

void Unit::stage_append(StagedAppend append) {
  staging_.require_open("append");
  staging_.writes().add(std::move(append));
}

std::optional<SagaRecord> Unit::find_saga(const SagaId& saga) const {
  const auto& saves = staging_.writes().list<StagedSagaSave>();
  const auto latest = std::find_if(saves.rbegin(), saves.rend(),
                                   [&](const StagedSagaSave& s) { return s.saga == saga; });
  if (latest != saves.rend()) {
    return latest->record;
  }
  return database_.find_saga(saga);
}

void Unit::stage_saga_save(StagedSagaSave save) {
  staging_.require_open("save a saga");
  staging_.writes().add(std::move(save));
}

void Unit::commit() {
  staging_.end();
  database_.commit(staging_.writes());
  if (wake_relays_)
    database_.outbox_staged()->notify();
}

Unit& joined_unit(HandlerTransaction& transaction, const Database& database,
                  const std::function<ConfigurationError(const std::string& reason)>& refuse) {
  auto* memory_tx = dynamic_cast<Transaction*>(&transaction);
  if (memory_tx == nullptr) {
    throw refuse("it is another provider's transaction, and memory stores work only in a " +
                 std::string(Transaction::kTypeName));
  }
  Unit& unit = TransactionAccess::unit(*memory_tx);
  if (&unit.database() != &database) {
    throw refuse("the transaction is on " + unit.database().describe() + " and this store on " +
                 database.describe() +
                 "; open the inbox (or outbox) store and this store on one "
                 "docket::memory::Database (see docket/memory/database.h)");
  }
  return unit;
}

}  // namespace docket::memory::detail
