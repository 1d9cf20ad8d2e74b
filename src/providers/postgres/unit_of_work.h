// The PostgreSQL unit of work: a READ COMMITTED transaction on a pooled connection,
// the dedup insert, one savepoint level for batches, COMMIT once; ROLLBACK when
// destroyed uncommitted.
//
// The dedup insert is INSERT ... ON CONFLICT DO NOTHING: when another transaction
// holds the same key uncommitted, PostgreSQL waits for it, then reports the row as a
// conflict (it committed: a duplicate) or inserts (it rolled back). So the answer is
// final and a unique violation a handler sees is the handler's own.
//
// Thread-safety: belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_POSTGRES_UNIT_OF_WORK_H_
#define DOCKET_PROVIDERS_POSTGRES_UNIT_OF_WORK_H_

#include <array>
#include <string_view>

#include "docket/inbox_store.h"
#include "docket/postgres/transaction.h"
#include "providers/postgres/database.h"
#include "providers/postgres/param.h"
#include "providers/postgres/transaction_block.h"

namespace docket::postgres {

class PostgresUnitOfWork final : public UnitOfWork {
 public:
  explicit PostgresUnitOfWork(Database& database);

  bool try_record(const InboxRecord& record) override;
  bool record_at_commit(const InboxRecord& record) override;
  bool is_recorded(const DedupKey& key) override;
  HandlerTransaction& handler_transaction() noexcept override { return tx_; }
  void begin_savepoint() override;
  void release_savepoint() override;
  void rollback_savepoint() override;
  void flush_deferred_writes() override;
  void commit() override;

 private:
  // Throws InfrastructureError when the transaction is no longer open: a handler ended
  // it through native(), or it was committed already.
  void require_open(std::string_view operation) const;
  // The dedup row's parameters, processed_at stamped now; they borrow `record`'s text.
  std::array<Param, 9> record_params(const InboxRecord& record) const;

  Database& database_;
  Pool::Lease lease_;  // destroyed last: the block rolls back on it first
  TransactionBlock block_;
  Transaction tx_;
};

// SELECT whether the key's dedup row exists, on `conn` (in its transaction, if any).
bool dedup_row_exists(Connection& conn, const DedupKey& key);

}  // namespace docket::postgres

#endif  // DOCKET_PROVIDERS_POSTGRES_UNIT_OF_WORK_H_
