// TransactionBlock: one transaction block on a Connection, RAII: BEGIN on construction,
// ROLLBACK on destruction unless commit() or rollback() ended it first.
//
// BEGIN, SAVEPOINT, ROLLBACK TO SAVEPOINT and RELEASE SAVEPOINT are deferred
// (connection.h): each travels with the next statement in one flight (flight.h), so a
// dispatch pays no round trip of its own for them. A failure of one of them is reported
// by that statement (PostgresError naming the command). A block that sent nothing ends
// without a round trip.
//
// Savepoints nest inside it: savepoint(name), then rollback_to(name) undoes what ran
// since (the transaction stays usable, also after a failed statement) or release(name)
// keeps it. Names are SQL identifiers: a letter or `_`, then letters, digits or `_`, at
// most 63 bytes; anything else is refused with InvalidInputError.
//
// Invariant: while active(), the connection is inside this transaction; after it ends
// the connection is outside any transaction block, or unhealthy (a ROLLBACK that fails
// in the destructor cannot be reported: the connection then is not idle(), and a Pool
// discards it).
// Thread-safety: none; the thread that owns the Connection owns its TransactionBlock.
#ifndef DOCKET_PROVIDERS_POSTGRES_TRANSACTION_BLOCK_H_
#define DOCKET_PROVIDERS_POSTGRES_TRANSACTION_BLOCK_H_

#include <string_view>

#include "providers/postgres/postgres_connection.h"

namespace docket::postgres::detail {

enum class Isolation { kReadCommitted, kRepeatableRead, kSerializable };

class TransactionBlock {
 public:
  // Throws InvalidInputError when the connection is already inside a transaction block
  // (BEGIN itself goes with the first statement).
  explicit TransactionBlock(Connection& conn, Isolation isolation = Isolation::kReadCommitted);
  ~TransactionBlock();

  TransactionBlock(const TransactionBlock&) = delete;
  TransactionBlock& operator=(const TransactionBlock&) = delete;
  TransactionBlock(TransactionBlock&&) = delete;
  TransactionBlock& operator=(TransactionBlock&&) = delete;

  Connection& connection() const noexcept { return conn_; }
  bool active() const noexcept { return active_; }

  // Commits. Throws PostgresError when COMMIT fails (deferred constraint, serialization
  // failure) and also when the server rolled back instead because a statement of the
  // transaction had failed (SQLSTATE 25P02). The transaction has ended either way.
  void commit();
  void rollback();

  void savepoint(std::string_view name);
  void rollback_to(std::string_view name);
  void release(std::string_view name);

 private:
  void require_active(std::string_view operation) const;
  // Forgets the deferred commands; returns whether the BEGIN had been sent, so that
  // there is a transaction to roll back on the server.
  bool end_unsent() noexcept;

  Connection& conn_;
  bool active_ = false;
};

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_TRANSACTION_BLOCK_H_
