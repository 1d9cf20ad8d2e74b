#include <utility>

#include "docket/memory/transaction.h"
#include "providers/memory/memory_transaction_access.h"

namespace docket::memory {

void Transaction::insert(std::string_view table, Terms key, Terms values) {
  TransactionAccess::unit(*this).insert(table, std::move(key), std::move(values));
}

std::optional<Terms> Transaction::find(std::string_view table, const Terms& key) const {
  return TransactionAccess::unit(*this).find(table, key);
}

std::size_t Transaction::count(std::string_view table) const {
  return TransactionAccess::unit(*this).count(table);
}

}  // namespace docket::memory
