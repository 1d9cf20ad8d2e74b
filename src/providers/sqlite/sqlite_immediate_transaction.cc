#include "providers/sqlite/sqlite_immediate_transaction.h"

namespace docket::sqlite::detail {

ImmediateTransaction::ImmediateTransaction(Connection& connection) : connection_(connection) {
  connection_.exec_views("BEGIN IMMEDIATE");
}

ImmediateTransaction::~ImmediateTransaction() {
  if (!ended_ && connection_.in_transaction()) {
    try {
      connection_.exec_views("ROLLBACK");
    } catch (...) {  // the pool closes a connection left in a transaction
    }
  }
}

void ImmediateTransaction::commit() {
  connection_.exec_views("COMMIT");
  ended_ = true;
}

}  // namespace docket::sqlite::detail
