#include <utility>

#include "docket/memory/transaction.h"
#include "providers/memory/memory_unit.h"

namespace docket::memory {

void Transaction::insert(std::string_view table, Terms key, Terms values) {
  unit_->insert(table, std::move(key), std::move(values));
}

std::optional<Terms> Transaction::find(std::string_view table, const Terms& key) const {
  return unit_->find(table, key);
}

std::size_t Transaction::count(std::string_view table) const {
  return unit_->count(table);
}

}  // namespace docket::memory
