// docket::cosmos::Transaction: each write staged in the unit of work underneath
// (cosmos_unit.h), which checks it and sends it at commit.
#include <utility>

#include "docket/cosmos/transaction.h"
#include "providers/cosmos/cosmos_transaction_access.h"
#include "providers/cosmos/cosmos_unit.h"

namespace docket::cosmos {

Transaction TransactionAccess::transaction_on(detail::Unit& unit) noexcept {
  return Transaction(unit);
}

detail::Unit& TransactionAccess::unit_of(const Transaction& transaction) noexcept {
  return static_cast<detail::Unit&>(*transaction.unit_);
}

std::string Transaction::partition() const {
  return TransactionAccess::unit_of(*this).partition();
}

void Transaction::create(std::string_view id, nlohmann::json item) {
  TransactionAccess::unit_of(*this).create(id, std::move(item));
}

void Transaction::upsert(std::string_view id, nlohmann::json item) {
  TransactionAccess::unit_of(*this).upsert(id, std::move(item));
}

void Transaction::replace(std::string_view id, nlohmann::json item,
                          std::optional<std::string> etag) {
  TransactionAccess::unit_of(*this).replace(id, std::move(item), etag);
}

void Transaction::remove(std::string_view id, std::optional<std::string> etag) {
  TransactionAccess::unit_of(*this).remove(id, etag);
}

std::optional<ItemRead> Transaction::read(std::string_view id) const {
  return TransactionAccess::unit_of(*this).read(id);
}

}  // namespace docket::cosmos
