// One open transaction on a store, as the code that opened it sees it: a producer
// writing its own rows and staging outbox messages, or an application reading and
// writing through a store outside a dispatcher.
//
//   auto unit = outbox_store.begin();
//   auto& tx = unit->transaction<docket::sqlite::Transaction>();   // checked
//   ...                // the producer's writes and outbox.send(tx, OrderPlaced{...})
//   unit->commit();    // all of them, or (destroyed uncommitted) none
//
// transaction<T>() is a checked down-cast, as a handler's ctx.transaction<T>(): a store
// of another provider is a ConfigurationError naming the type asked for and the store's.
// Code that serves several providers takes transaction() and stages through it.
//
// What a dispatcher does with an inbox store's unit beyond this (dedup records,
// savepoints, batches) is the provider's side of the SPI: docket/spi/inbox_unit.h.
//
// Invariants every provider keeps: a unit destroyed without commit() rolls back
// everything written through it; commit() commits once.
// Thread-safety: a unit of work belongs to the thread that began it.
#ifndef DOCKET_CORE_UNIT_OF_WORK_H_
#define DOCKET_CORE_UNIT_OF_WORK_H_

#include "docket/core/handler_transaction.h"

namespace docket {

class UnitOfWork {
 public:
  virtual ~UnitOfWork() = default;
  UnitOfWork(const UnitOfWork&) = delete;
  UnitOfWork& operator=(const UnitOfWork&) = delete;

  // What the caller (or a handler) writes through: the provider's native wrapper
  // (docket::sqlite::Transaction, ...). Valid until the unit of work ends.
  virtual HandlerTransaction& handler_transaction() noexcept = 0;

  // The same, by the name a producer looks for.
  HandlerTransaction& transaction() noexcept { return handler_transaction(); }

  // The transaction as the provider wrapper T (see above).
  template <class T>
  T& transaction() {
    return transaction_as<T>(handler_transaction(), "producer", "unit of work's");
  }

  // Sends now the writes the unit holds back to send with its next statement or its
  // commit (on PostgreSQL: a Transaction::send, an outbox message staged), and throws
  // their failure. The default holds nothing back.
  virtual void flush_deferred_writes() {}

  // Commits once. Throws UniqueViolationError when a constraint fails at commit.
  virtual void commit() = 0;

 protected:
  UnitOfWork() = default;
};

}  // namespace docket

#endif  // DOCKET_CORE_UNIT_OF_WORK_H_
