// The provider's side of docket::redis::Transaction (docket/redis/transaction.h): what a
// handler's write is queued into. The Redis unit of work derives from it; only this
// class can construct a Transaction, so no application can reach the unit.
//
// Thread-safety: as the unit of work: one thread.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_TRANSACTION_ACCESS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_TRANSACTION_ACCESS_H_

#include <string_view>

#include "docket/redis/transaction.h"

namespace docket::redis {

// The commands a Transaction queues, as the commit script names them.
enum class QueuedOp { kSet, kInsert, kRemove, kHset, kSadd, kRpush };

class TransactionAccess {
 public:
  // The Transaction of `unit`, the handler's view of it.
  static Transaction transaction_on(TransactionAccess& unit) noexcept { return Transaction(unit); }
  static TransactionAccess& unit_of(const Transaction& transaction) noexcept {
    return *transaction.unit_;
  }

  // Queues one write (`field` is used by kHset alone, `value` by all but kRemove).
  // Throws InvalidInputError for a key or value over Redis's 512 MB, queuing nothing.
  virtual void queue(QueuedOp op, std::string_view key, std::string_view field,
                     std::string_view value) = 0;

 protected:
  TransactionAccess() = default;
  ~TransactionAccess() = default;
  TransactionAccess(const TransactionAccess&) = default;
  TransactionAccess& operator=(const TransactionAccess&) = default;
};

}  // namespace docket::redis

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_TRANSACTION_ACCESS_H_
