// docket::dynamodb::Transaction: each write staged in the unit of work underneath
// (dynamodb_unit.h), which checks it and sends it at commit.
#include <utility>

#include "docket/dynamodb/transaction.h"
#include "providers/dynamodb/dynamodb_transaction_access.h"
#include "providers/dynamodb/dynamodb_unit.h"

namespace docket::dynamodb {

Transaction TransactionAccess::transaction_on(detail::Unit& unit) noexcept {
  return Transaction(unit);
}

detail::Unit& TransactionAccess::unit_of(const Transaction& transaction) noexcept {
  return static_cast<detail::Unit&>(*transaction.unit_);
}

void Transaction::put(std::string_view table, nlohmann::json item,
                      std::optional<Expression> condition) {
  TransactionAccess::unit_of(*this).put(table, std::move(item), std::move(condition),
                                        detail::Role::kWrite);
}

void Transaction::insert(std::string_view table, nlohmann::json item) {
  TransactionAccess::unit_of(*this).put(table, std::move(item), std::nullopt,
                                        detail::Role::kInsert);
}

void Transaction::update(std::string_view table, nlohmann::json key, Expression update,
                         std::optional<Expression> condition) {
  TransactionAccess::unit_of(*this).update(table, std::move(key), std::move(update),
                                           std::move(condition));
}

void Transaction::remove(std::string_view table, nlohmann::json key,
                         std::optional<Expression> condition) {
  TransactionAccess::unit_of(*this).remove(table, std::move(key), std::move(condition));
}

void Transaction::condition_check(std::string_view table, nlohmann::json key,
                                  Expression condition) {
  TransactionAccess::unit_of(*this).condition_check(table, std::move(key), std::move(condition));
}

}  // namespace docket::dynamodb
