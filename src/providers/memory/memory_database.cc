#include "providers/memory/memory_database.h"

#include <mutex>

#include "docket/inbox_errors.h"

namespace docket::memory::detail {

std::optional<Terms> Database::find(std::string_view table, const Terms& key) const {
  std::shared_lock lock(mutex_);
  const auto t = tables_.find(table);
  if (t == tables_.end()) {
    return std::nullopt;
  }
  const auto row = t->second.find(key);
  if (row == t->second.end()) {
    return std::nullopt;
  }
  return row->second;
}

std::size_t Database::count(std::string_view table) const {
  std::shared_lock lock(mutex_);
  const auto t = tables_.find(table);
  return t == tables_.end() ? 0 : t->second.size();
}

void Database::commit(const std::vector<StagedInsert>& inserts) {
  std::unique_lock lock(mutex_);
  for (const StagedInsert& insert : inserts) {
    const auto t = tables_.find(insert.table);
    if (t != tables_.end() && t->second.contains(insert.key)) {
      throw_unique_violation(insert.table, insert.key, "committed by another unit of work");
    }
  }
  for (const StagedInsert& insert : inserts) {
    auto t = tables_.find(insert.table);
    if (t == tables_.end()) {
      t = tables_.emplace(insert.table, Table{}).first;
    }
    t->second.emplace(insert.key, insert.values);
  }
}

void Database::read(
    const std::function<void(const std::map<std::string, Table, std::less<>>&)>& reader) const {
  std::shared_lock lock(mutex_);
  reader(tables_);
}

void Database::write(
    const std::function<void(std::map<std::string, Table, std::less<>>&)>& writer) {
  std::unique_lock lock(mutex_);
  writer(tables_);
}

void throw_unique_violation(std::string_view table, const Terms& key, std::string_view when) {
  std::string terms;
  for (const std::string& term : key) {
    terms += (terms.empty() ? "'" : ", '") + term + "'";
  }
  throw UniqueViolationError(std::string(table), "memory table '" + std::string(table) +
                                                     "': a row with key (" + terms +
                                                     ") already exists (" + std::string(when) +
                                                     "); keys are unique, write each key once");
}

}  // namespace docket::memory::detail
