// The SQLite unit of work: BEGIN IMMEDIATE on a pooled connection, the dedup insert,
// one savepoint level for batches, COMMIT once; ROLLBACK when destroyed uncommitted.
//
// BEGIN IMMEDIATE takes the write lock up front, so within the unit nothing else
// commits: the dedup insert's answer is final, and a unique violation a handler sees
// is the handler's own.
//
// Thread-safety: belongs to the thread that began it.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_UNIT_OF_WORK_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_UNIT_OF_WORK_H_

#include "docket/inbox/inbox_store.h"
#include "docket/spi/inbox_unit.h"
#include "docket/sqlite/transaction.h"
#include "providers/sqlite/sqlite_database.h"
#include "providers/sqlite/sqlite_transaction_access.h"

namespace docket::sqlite::detail {

class SqliteUnitOfWork final : public spi::InboxUnit {
 public:
  explicit SqliteUnitOfWork(Database& database);
  ~SqliteUnitOfWork() override;

  bool try_record(const InboxRecord& record) override;
  bool is_recorded(const DedupKey& key) override;
  HandlerTransaction& handler_transaction() noexcept override { return tx_.transaction(); }
  void begin_savepoint() override;
  void release_savepoint() override;
  void rollback_savepoint() override;
  void commit() override;

 private:
  // Throws InfrastructureError when the transaction is no longer open: a handler ended
  // it through native(), or SQLite rolled it back after an error.
  void require_open(std::string_view operation) const;
  // The statement for `sql`, looked up in the connection's cache once per unit of work:
  // a batch runs the dedup insert and the savepoint pair for every message.
  Statement& once(Statement*& slot, std::string_view sql);

  Database& database_;
  Pool::Lease lease_;
  TransactionAccess::OnConnection tx_;
  bool ended_ = false;
  Statement* record_ = nullptr;
  Statement* savepoint_ = nullptr;
  Statement* release_ = nullptr;
};

// SELECT whether the key's dedup row exists, on `connection`.
bool dedup_row_exists(Connection& connection, const DedupKey& key);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_UNIT_OF_WORK_H_
