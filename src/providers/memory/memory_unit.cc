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
  staged_.push_back(StagedInsert{std::string(table), std::move(key), std::move(values)});
}

std::optional<Terms> Unit::find(std::string_view table, const Terms& key) const {
  const auto staged = std::find_if(staged_.begin(), staged_.end(), [&](const StagedInsert& s) {
    return s.table == table && s.key == key;
  });
  if (staged != staged_.end()) {
    return staged->values;
  }
  return database_.find(table, key);
}

std::size_t Unit::count(std::string_view table) const {
  const auto staged = std::count_if(staged_.begin(), staged_.end(),
                                    [&](const StagedInsert& s) { return s.table == table; });
  return database_.count(table) + static_cast<std::size_t>(staged);
}

void Unit::begin_savepoint() {
  require_open("begin a savepoint");
  savepoints_.push_back(staged_.size());
}

void Unit::release_savepoint() {
  require_open("release a savepoint");
  if (savepoints_.empty()) {
    throw InfrastructureError("memory unit of work: release without an open savepoint");
  }
  savepoints_.pop_back();
}

void Unit::rollback_savepoint() {
  require_open("roll back to a savepoint");
  if (savepoints_.empty()) {
    throw InfrastructureError("memory unit of work: rollback without an open savepoint");
  }
  staged_.resize(savepoints_.back());
  savepoints_.pop_back();
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

}  // namespace docket::memory::detail
