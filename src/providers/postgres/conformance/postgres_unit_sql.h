// SQL run in a unit of work of a PostgreSQL inbox store, as a test's setup and checks
// do: the statements run in the inbox's schema (the store's search_path), and exec
// commits what they wrote.
//
// Thread-safety: one call at a time per store, as a unit of work is.
#ifndef DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_POSTGRES_UNIT_SQL_H_
#define DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_POSTGRES_UNIT_SQL_H_

#include <string>
#include <vector>

#include "docket/inbox/inbox_store.h"
#include "docket/postgres/transaction.h"

namespace docket::conformance {

// Runs `sql` (statements without results) and commits.
inline void exec_in_unit(InboxStore& inbox, const std::string& sql) {
  auto unit = inbox.begin();
  dynamic_cast<postgres::Transaction&>(unit->handler_transaction()).exec(sql);
  unit->commit();
}

// The rows `sql` returns; nothing is committed.
inline std::vector<postgres::Row> query_in_unit(InboxStore& inbox, const std::string& sql) {
  auto unit = inbox.begin();
  return dynamic_cast<postgres::Transaction&>(unit->handler_transaction()).query(sql);
}

}  // namespace docket::conformance

#endif  // DOCKET_PROVIDERS_POSTGRES_CONFORMANCE_POSTGRES_UNIT_SQL_H_
