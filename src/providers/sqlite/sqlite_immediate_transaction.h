// A transaction of docket's own on a pooled connection: BEGIN IMMEDIATE at
// construction, COMMIT by commit(), ROLLBACK when destroyed uncommitted (also while an
// exception unwinds).
//
// BEGIN IMMEDIATE takes SQLite's write lock up front (waiting up to the busy timeout),
// so every read inside sees the state no other writer can change before the commit:
// a version checked here is still the version when the insert commits. BEGIN, COMMIT
// and ROLLBACK run as the connection's cached statements, not parsed again each time.
//
// Thread-safety: belongs to the thread holding the connection.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_IMMEDIATE_TRANSACTION_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_IMMEDIATE_TRANSACTION_H_

#include "providers/sqlite/sqlite_connection.h"

namespace docket::sqlite::detail {

class ImmediateTransaction {
 public:
  explicit ImmediateTransaction(Connection& connection);
  ~ImmediateTransaction();
  ImmediateTransaction(const ImmediateTransaction&) = delete;
  ImmediateTransaction& operator=(const ImmediateTransaction&) = delete;

  void commit();

 private:
  Connection& connection_;
  bool ended_ = false;
};

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_IMMEDIATE_TRANSACTION_H_
