// What docket's own PostgreSQL code, and nothing else, may do with a
// docket::postgres::Transaction: make one on a pooled connection, and reach the connection under
// one (the outbox, event and saga stores run their statements on it, after checking that it reaches
// their tables). The public header befriends this class and leaves Transaction::Handle, the one
// type of ours it needs, opaque.
#ifndef DOCKET_PROVIDERS_POSTGRES_POSTGRES_TRANSACTION_ACCESS_H_
#define DOCKET_PROVIDERS_POSTGRES_POSTGRES_TRANSACTION_ACCESS_H_

#include "docket/postgres/transaction.h"
#include "providers/postgres/postgres_connection.h"

namespace docket::postgres {

struct Transaction::Handle {
  detail::Connection& connection;
};

class TransactionAccess {
 public:
  TransactionAccess() = delete;

  // A Transaction on `connection`, which outlives it. Neither copied nor moved: the
  // transaction points at the handle beside it.
  class OnConnection {
   public:
    explicit OnConnection(detail::Connection& connection) noexcept
        : handle_{connection}, transaction_(handle_) {}
    OnConnection(const OnConnection&) = delete;
    OnConnection& operator=(const OnConnection&) = delete;

    Transaction& transaction() noexcept { return transaction_; }

   private:
    Transaction::Handle handle_;
    Transaction transaction_;
  };

  // The connection under `transaction`.
  static detail::Connection& connection(const Transaction& transaction) noexcept {
    return transaction.handle_->connection;
  }
};

}  // namespace docket::postgres

#endif  // DOCKET_PROVIDERS_POSTGRES_POSTGRES_TRANSACTION_ACCESS_H_
