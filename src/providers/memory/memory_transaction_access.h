// What docket's own memory code, and nothing else, may do with a
// docket::memory::Transaction: make one on a unit of work, and reach the unit of work under one
// (the outbox, event and saga stores stage through it, after checking that it is on their
// database). The public header befriends this class and leaves Transaction::Handle, the one type of
// ours it needs, opaque.
#ifndef DOCKET_PROVIDERS_MEMORY_MEMORY_TRANSACTION_ACCESS_H_
#define DOCKET_PROVIDERS_MEMORY_MEMORY_TRANSACTION_ACCESS_H_

#include "docket/memory/transaction.h"
#include "providers/memory/memory_unit.h"

namespace docket::memory {

struct Transaction::Handle {
  detail::Unit& unit;
};

class TransactionAccess {
 public:
  TransactionAccess() = delete;

  // A Transaction on `unit`, which outlives it. Neither copied nor moved: the
  // transaction points at the handle beside it.
  class OnUnit {
   public:
    explicit OnUnit(detail::Unit& unit) noexcept : handle_{unit}, transaction_(handle_) {}
    OnUnit(const OnUnit&) = delete;
    OnUnit& operator=(const OnUnit&) = delete;

    Transaction& transaction() noexcept { return transaction_; }

   private:
    Transaction::Handle handle_;
    Transaction transaction_;
  };

  // The unit of work under `transaction`.
  static detail::Unit& unit(const Transaction& transaction) noexcept {
    return transaction.handle_->unit;
  }
};

}  // namespace docket::memory

#endif  // DOCKET_PROVIDERS_MEMORY_MEMORY_TRANSACTION_ACCESS_H_
