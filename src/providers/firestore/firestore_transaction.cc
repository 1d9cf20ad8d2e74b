// docket::firestore::Transaction: each write staged in the unit of work underneath
// (firestore_unit.h), which checks it and sends it at commit.
#include <utility>

#include "docket/firestore/transaction.h"
#include "providers/firestore/firestore_transaction_access.h"
#include "providers/firestore/firestore_unit.h"

namespace docket::firestore {

Transaction TransactionAccess::transaction_on(detail::Unit& unit) noexcept {
  return Transaction(unit);
}

detail::Unit& TransactionAccess::unit_of(const Transaction& transaction) noexcept {
  return static_cast<detail::Unit&>(*transaction.unit_);
}

void Transaction::create(std::string_view collection, std::string_view id, nlohmann::json fields) {
  TransactionAccess::unit_of(*this).create(collection, id, std::move(fields));
}

void Transaction::set(std::string_view collection, std::string_view id, nlohmann::json fields,
                      std::optional<Condition> condition) {
  TransactionAccess::unit_of(*this).set(collection, id, std::move(fields), condition);
}

void Transaction::update(std::string_view collection, std::string_view id, nlohmann::json fields,
                         Condition condition) {
  TransactionAccess::unit_of(*this).update(collection, id, std::move(fields), condition);
}

void Transaction::remove(std::string_view collection, std::string_view id,
                         std::optional<Condition> condition) {
  TransactionAccess::unit_of(*this).remove(collection, id, condition);
}

void Transaction::check(std::string_view collection, std::string_view id, Condition condition) {
  TransactionAccess::unit_of(*this).check(collection, id, condition);
}

std::optional<DocumentRead> Transaction::get(std::string_view collection,
                                             std::string_view id) const {
  return TransactionAccess::unit_of(*this).get(collection, id);
}

}  // namespace docket::firestore
