// Whether a store of docket's own SQLite provider may work inside a caller's
// transaction (an inbox handler's unit of work), shared by the event store and the saga
// store: only a docket::sqlite::Transaction on the store's own database file can carry
// its writes; anywhere else they would commit where the store never reads them.
//
// Thread-safety: pure functions of their arguments; the transaction belongs to the
// calling thread.
#ifndef DOCKET_PROVIDERS_SQLITE_SQLITE_JOIN_H_
#define DOCKET_PROVIDERS_SQLITE_SQLITE_JOIN_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/core/handler_transaction.h"

struct sqlite3;

namespace docket::sqlite::detail {

// The file behind the connection's main database; empty for an in-memory database.
std::string database_file(sqlite3* db);

// Why the `store` ("event store", "saga store") on database `file` (empty: in-memory)
// cannot work inside `transaction`, or nullopt when it can: the transaction is then a
// docket::sqlite::Transaction on `file`. The reason completes the store's
// cannot_join_error message.
std::optional<std::string> join_refusal(const HandlerTransaction& transaction,
                                        const std::string& file, std::string_view store);

}  // namespace docket::sqlite::detail

#endif  // DOCKET_PROVIDERS_SQLITE_SQLITE_JOIN_H_
