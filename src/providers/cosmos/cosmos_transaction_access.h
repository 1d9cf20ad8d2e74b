// TransactionAccess: the one way from a docket::cosmos::Transaction to the unit of work it
// stages into, and back. The public header (docket/cosmos/transaction.h) declares it only,
// as a friend of Transaction; this definition is the provider's own, so only docket's
// Cosmos DB code can put a Transaction on a unit and reach the unit under one.
//
// Invariant: every TransactionAccess is the base of a detail::Unit (the unit derives from
// it and nothing else does), so unit_of's downcast is always to the object's type.
//
// Thread-safety: as the unit's: one thread.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_TRANSACTION_ACCESS_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_TRANSACTION_ACCESS_H_

#include "docket/cosmos/transaction.h"

namespace docket::cosmos {

namespace detail {
class Unit;
}

class TransactionAccess {
 public:
  // The Transaction of `unit`, the handler's view of it.
  static Transaction transaction_on(detail::Unit& unit) noexcept;

  // The unit under `transaction`.
  static detail::Unit& unit_of(const Transaction& transaction) noexcept;

 protected:
  // Only a unit constructs one, as its base.
  TransactionAccess() = default;
  ~TransactionAccess() = default;
  TransactionAccess(const TransactionAccess&) = default;
  TransactionAccess& operator=(const TransactionAccess&) = default;
};

}  // namespace docket::cosmos

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_TRANSACTION_ACCESS_H_
