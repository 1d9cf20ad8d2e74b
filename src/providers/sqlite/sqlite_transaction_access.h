// What docket's own SQLite code, and nothing else, may do with a
// docket::sqlite::Transaction: make one on a pooled connection, and reach the connection under one
// (the outbox checks that a producer's transaction is on its database; the event and saga stores
// run their statements on it). The public header befriends this class and leaves
// Transaction::Handle, the one type of ours it needs, opaque.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_TRANSACTION_ACCESS_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_TRANSACTION_ACCESS_H_

#include "docket/sqlite/transaction.h"
#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite {

struct Transaction::Handle {
  detail::Connection& connection;
  // An outbox message was staged, or events appended, through the transaction: its
  // unit of work wakes the relays, or the feed consumers, once it commits
  // (OutboxStore::staged_signal, EventStore::appended_signal).
  bool staged_outbox = false;
  bool appended_events = false;
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
    bool staged_outbox() const noexcept { return handle_.staged_outbox; }
    bool appended_events() const noexcept { return handle_.appended_events; }

   private:
    Transaction::Handle handle_;
    Transaction transaction_;
  };

  // The connection under `transaction`.
  static detail::Connection& connection(const Transaction& transaction) noexcept {
    return transaction.handle_->connection;
  }

  // Notes that an outbox message was staged, or events appended, through `transaction`.
  static void note_staged_outbox(Transaction& transaction) noexcept {
    transaction.handle_->staged_outbox = true;
  }
  static void note_appended_events(Transaction& transaction) noexcept {
    transaction.handle_->appended_events = true;
  }
};

}  // namespace docket::sqlite

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_TRANSACTION_ACCESS_H_
